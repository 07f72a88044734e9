//! gateway-shim(1), written here and not in the shim: the shim stays a
//! small `no_std` binary with a hand-parsed command line (no clap, no
//! serde), so the gateway, which has the roff machinery, prints its page.
//! The agent list comes from `Agent::ALL`, the list the shim's own usage
//! line is built from.

use hookgate_adapters::Agent;

/// The whole page (roff).
pub(super) fn render() -> String {
    let agents = Agent::ALL
        .map(|agent| format!("\\fB{}\\fR", agent.as_str().replace('-', "\\-")))
        .join(", ");
    let version = env!("CARGO_PKG_VERSION");
    format!(
        r#".TH gateway-shim 1 "" "gateway-shim {version}" "hookgate"
.SH NAME
gateway\-shim \- the hook command agents run; forwards each hook call to the hookgate gateway
.SH SYNOPSIS
\fBgateway\-shim\fR [\fIAGENT\fR [\fIEVENT\fR]] [\fB\-\-fail\-closed\fR|\fB\-\-fail\-open\fR]
.br
\fBgateway\-shim\fR \fB\-\-help\fR|\fB\-\-version\fR
.SH DESCRIPTION
An AI coding agent runs \fBgateway\-shim\fR as its hook command (written into
the agent's settings by \fBgateway install\fR). It reads the hook payload on
stdin, sends it to the gateway over its socket, and replays the gateway's
answer on stdout, stderr and exit code, in the agent's own dialect.
.PP
\fIAGENT\fR is one of {agents}; without it the agent is detected from the
payload. \fIEVENT\fR, the agent's own event name, is for payloads that name
none (Copilot CLI's camelCase hooks: \fBgateway\-shim copilot preToolUse\fR).
.PP
The shim is a small static binary: it links no async runtime and parses its
command line by hand. A bad command line is reported on stderr and answered
like an unreachable gateway, never with an exit code the agent could read as
a verdict.
.SH OPTIONS
.TP
\fB\-\-fail\-closed\fR
When no gateway answers, block what the event lets a hook block.
.TP
\fB\-\-fail\-open\fR
When no gateway answers, give the agent's neutral reply (the default). The
last of the two wins; either wins over \fB$HOOKGATE_FAIL\fR.
.TP
\fB\-\-help\fR, \fB\-\-version\fR
Print the usage or the version and exit 0.
.SH "FAIL MODES"
The shim answers on its own when the gateway cannot: no socket, a refused
connection, no reply before the deadline, a reply it cannot read, or a payload
it cannot parse. Fail\-open (the default) lets the call through with the
agent's neutral reply; fail\-closed blocks it with a message saying why. Either
way one line \fI<unix_secs> <reason> <mode>\fR is appended to
\fISOCKET.fallbacks\fR, which \fBgateway status\fR and \fBgateway doctor\fR
report, so a dead gateway never looks like a permissive one.
.PP
With \fBHOOKGATE_AUTOSTART=1\fR and an absolute \fBHOOKGATE_GATEWAY\fR the shim
first starts \fB$HOOKGATE_GATEWAY serve \-\-socket SOCKET\fR (its log in
\fISOCKET_DIR/gateway.log\fR) and answers through it. A gateway binary that is
missing or not executable, or one that exits before serving, ends the wait at
once; the reason (from \fISOCKET.start\-failed\fR) is in the fail\-closed
message and the fallback record.
.SH ENVIRONMENT
.TP
\fBHOOKGATE_SOCKET\fR
The gateway's socket. Default \fI$XDG_RUNTIME_DIR/hookgate/gateway.sock\fR,
else \fI$XDG_STATE_HOME/hookgate/gateway.sock\fR
(\fI~/.local/state/hookgate/gateway.sock\fR), else
\fI$TMPDIR/hookgate\-UID/gateway.sock\fR. On Windows a named pipe, default
\fI\e\e.\epipe\ehookgate\-USERNAME\egateway\fR.
.TP
\fBHOOKGATE_TIMEOUT_MS\fR
The total deadline from start to reply, in milliseconds: default 5000, at most
600000. A bad value is noted on stderr and the default used.
.TP
\fBHOOKGATE_HOLD_MAX_MS\fR
The longest, in milliseconds from start, the shim waits for a call the gateway
holds for a person (an \fBapproval\fR subscriber): default 0, no holds; at most
3600000. \fB\-\-hold\-max\-ms=MS\fR wins over it.
.TP
\fBHOOKGATE_FAIL\fR
\fBopen\fR (default) or \fBclosed\fR; the options above win over it.
.TP
\fBHOOKGATE_DEBUG\fR
\fB1\fR: one diagnostic line on stderr for each fallback.
.TP
\fBHOOKGATE_AUTOSTART\fR
\fB1\fR: start the gateway when none answers (see FAIL MODES).
.TP
\fBHOOKGATE_GATEWAY\fR
The gateway binary autostart runs: an absolute path (anything else turns
autostart off).
.PP
The shim forwards the agent's environment with the call and adds
\fBHOOKGATE_DEADLINE_UNIX_MS\fR, its deadline, for the gateway, and, when it takes
holds, \fBHOOKGATE_HOLD_UNTIL_UNIX_MS\fR, the latest it waits for a held call.
.SH "EXIT STATUS"
The exit code is part of the agent's reply, as the agent's hook protocol
defines it: 0 for an allow or a neutral reply (fail\-open included), and the
agent's blocking code (2 for Claude Code and the agents that share its
protocol) when the gateway blocks or a fail\-closed shim blocks. \fB\-\-help\fR
and \fB\-\-version\fR exit 0.
.SH FILES
.TP
\fISOCKET.fallbacks\fR
The fallback record (not on Windows).
.TP
\fISOCKET.start\-failed\fR
Why the gateway's last start failed, read by autostart.
.SH EXAMPLES
The hook command \fBgateway install\fR writes (one line):
.PP
.RS
.nf
HOOKGATE_SOCKET='/run/user/1000/hookgate/gateway.sock' HOOKGATE_AUTOSTART=1 \e
  HOOKGATE_GATEWAY='/home/ada/.local/bin/gateway' \e
  '/home/ada/.local/bin/gateway\-shim' claude\-code
.fi
.RE
.PP
Try it by hand, failing closed, with a diagnostic:
.PP
.RS
.nf
echo '{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls"}}}}' |
  HOOKGATE_DEBUG=1 gateway\-shim claude\-code \-\-fail\-closed; echo "exit $?"
.fi
.RE
.SH "SEE ALSO"
\fBgateway\fR(1), \fBgateway\-install\fR(1), \fBgateway\-doctor\fR(1)
"#
    )
}
