//! gateway(1)'s hand-written sections: FILES, ENVIRONMENT, EXIT STATUS,
//! EXAMPLES, SEE ALSO. clap knows the options but not where the gateway
//! looks for things nor how each command exits; these say it, from the
//! code's real defaults (hookgate-config's `Env`, hookgate-wire's socket
//! resolution, the state directory of hookgate-daemon). The test
//! `man_pages_document_every_variable_and_parse` greps the sources for
//! `HOOKGATE_*` names, so a variable added without a line here fails it.

/// The roff text, one `.SH` per section. Plain strings: every line that
/// could start with `.` or `'` is a macro on purpose, and `-` in option
/// names is written `\-` (a real hyphen-minus, copyable).
pub(super) fn render() -> String {
    [FILES, ENVIRONMENT, EXIT_STATUS, EXAMPLES, SEE_ALSO].concat()
}

const FILES: &str = r#".SH FILES
The configuration is layered: the embedded default, then the system file, then
the user's file (or \fB\-\-config\fR); each adds to the one below
(\fBgateway config show \-\-effective\fR prints the result with each entry's layer).
.TP
\fI/etc/hookgate/gateway.toml\fR
The system (managed) config, or \fB$HOOKGATE_SYSTEM_CONFIG\fR. Only it can lock
settings or turn self\-protection off.
.TP
\fI$XDG_CONFIG_HOME/hookgate/gateway.toml\fR
The user's config (default \fI~/.config/hookgate/gateway.toml\fR); watched, so
a first file or an edit is applied without a restart. \fBgateway config init\fR
writes a commented starter.
.TP
\fI$XDG_RUNTIME_DIR/hookgate/gateway.sock\fR
The socket the shim connects to, unless \fB$HOOKGATE_SOCKET\fR, \fB\-\-socket\fR
or the config's \fBserver.socket\fR names another. Without
\fB$XDG_RUNTIME_DIR\fR: \fI$XDG_STATE_HOME/hookgate/gateway.sock\fR (when that
path fits a socket address), else \fI$TMPDIR/hookgate\-UID/gateway.sock\fR
(\fI/tmp\fR when \fB$TMPDIR\fR is unset).
.TP
\fISOCKET.admin\fR
The admin socket beside it (\fBgateway status\fR, \fBgateway reload\fR).
.TP
\fISOCKET.fallbacks\fR
The shims' record of the calls they answered on their own (no gateway), read
by \fBgateway status\fR and \fBgateway doctor\fR.
.TP
\fISOCKET.start\-failed\fR
Why the last start of a gateway for that socket failed (an invalid config, a
socket in use); shown by the autostarting shim, \fBstatus\fR and \fBdoctor\fR.
.TP
\fISOCKET_DIR/gateway.log\fR
The log of a gateway the shim autostarted.
.TP
\fI$XDG_STATE_HOME/hookgate/\fR
The state directory (default \fI~/.local/state/hookgate/\fR). It holds:
.RS
.TP
\fIaudit.jsonl\fR
The decision log (the \fBaudit\fR subscriber's default \fBpath\fR), hash
chained, with its rotated files; \fBgateway audit\fR shows it,
\fBgateway audit verify\fR checks it.
.TP
\fIinstalled\fR
The install manifest: every hook \fBgateway install\fR added, for
\fBuninstall\fR and self\-protection.
.TP
\fIcounts.json\fR
The status counters, kept across restarts.
.TP
\fIhttp.token\fR
The token of the HTTP hook endpoint, when it is on.
.RE
.IP
These two are kept here when the socket is under \fB$XDG_RUNTIME_DIR\fR
(emptied at logout), else beside the socket.
"#;

const ENVIRONMENT: &str = r#".SH ENVIRONMENT
.TP
\fBHOOKGATE_SOCKET\fR
The gateway's socket (a named pipe on Windows), for \fBserve\fR, \fBstatus\fR,
\fBreload\fR, \fBdoctor\fR and the shim. \fBgateway install\fR pins it in every
hook command.
.TP
\fBHOOKGATE_SYSTEM_CONFIG\fR
The system config's path instead of \fI/etc/hookgate/gateway.toml\fR.
.TP
\fBHOOKGATE_TIMEOUT_MS\fR
The shim's total deadline (default 5000); \fBinstall\fR writes it into hook
commands whose agent allows less than the default.
.TP
\fBHOOKGATE_HOLD_MAX_MS\fR
The longest the shim waits for a call an \fBapproval\fR subscriber holds for a
person, from its start (default 0: it takes no holds; \fB\-\-hold\-max\-ms\fR
on its command line wins). The shim forwards the resulting limit as
\fBHOOKGATE_HOLD_UNTIL_UNIX_MS\fR.
.TP
\fBHOOKGATE_FAIL\fR
\fBopen\fR (default) or \fBclosed\fR: what the shim answers when no gateway
can; forwarded to the gateway with the call.
.TP
\fBHOOKGATE_DEBUG\fR
\fB1\fR: the shim prints one diagnostic line on stderr per fallback.
.TP
\fBHOOKGATE_AUTOSTART\fR, \fBHOOKGATE_GATEWAY\fR
With \fBHOOKGATE_AUTOSTART=1\fR the shim starts \fB$HOOKGATE_GATEWAY serve\fR
(an absolute path) when no gateway answers; \fBinstall\fR writes both and
\fBdoctor\fR checks them.
.TP
\fBHOOKGATE_DEADLINE_UNIX_MS\fR
Set by the shim in what it forwards: when its deadline passes, so the gateway
stops waiting for subscribers the agent no longer waits for.
.TP
\fBXDG_CONFIG_HOME\fR, \fBXDG_STATE_HOME\fR, \fBXDG_RUNTIME_DIR\fR, \fBTMPDIR\fR, \fBHOME\fR
Where the files above are (see FILES).
.TP
\fBRUST_LOG\fR
The log filter when \fB\-\-log\-level\fR is not given (default \fBinfo\fR).
.TP
\fBTZ\fR
The time zone \fBgateway audit\fR shows times in (unless \fB\-\-utc\fR).
"#;

const EXIT_STATUS: &str = r#".SH "EXIT STATUS"
Every command exits 2 on a command line it cannot parse, and 0 when it did
what was asked. Beyond that:
.TP
\fBserve\fR
1 when the gateway cannot run (the socket cannot be bound, the runtime cannot
start); 2 for an invalid config or log level; 130 on a second SIGINT or
SIGTERM (in\-flight events abandoned).
.TP
\fBstatus\fR
1 when no gateway answers, and with \fB\-\-check\fR when a subscriber is down.
.TP
\fBinstall\fR, \fBuninstall\fR
1 when an agent's config could not be changed (the others are still done).
.TP
\fBdoctor\fR
64 when an agent is unprotected (the report says why and the fix); 1 when the
check itself cannot run.
.TP
\fBreload\fR
2 when the gateway refused the config (invalid, or weaker without
\fB\-\-allow\-weaker\fR); 1 when no gateway answers.
.TP
\fBaudit\fR
2 for a bad \fB\-\-since\fR or no log path; 1 when the log cannot be read.
.TP
\fBaudit verify\fR
1 when the chain is broken: a line edited, removed or inserted, the log cut, a
rotated file missing, or the anchor disagreeing.
.TP
\fBeval\fR
0 allow, 2 block, 1 error (a usage error too).
.TP
\fBreplay\fR
1 when the candidate config or the log cannot be used.
.TP
\fBconfig\fR
\fBcheck\fR and \fBshow\fR: 2 for an invalid config. \fBinit\fR: 1 when the
file exists (never overwritten) or cannot be written.
.TP
\fBman\fR, \fBcompletions\fR
1 when a page cannot be written.
"#;

const EXAMPLES: &str = r#".SH EXAMPLES
Protect every agent found, then check the whole chain:
.PP
.RS
.nf
gateway install \-\-all
gateway doctor
.fi
.RE
.PP
Add to the default config, check and apply it:
.PP
.RS
.nf
gateway config init
gateway config check ~/.config/hookgate/gateway.toml
gateway reload
.fi
.RE
.PP
What was denied in the last hour, and is the log intact:
.PP
.RS
.nf
gateway audit \-\-decision deny \-\-since 1h
gateway audit verify
.fi
.RE
.PP
Try a command against the config without a daemon:
.PP
.RS
.nf
gateway eval \-\-agent claude\-code \-\-command 'git push \-\-force'
gateway eval \-\-agent claude\-code \-\-tool Write \-\-input '{"file_path":"/etc/x","content":"y"}'
.fi
.RE
.PP
Ask the running gateway's live config instead (marked as a probe in its
decision log):
.PP
.RS
.nf
gateway eval \-\-socket "$XDG_RUNTIME_DIR/hookgate/gateway.sock" \-\-agent codex \-\-prompt 'delete the repo'
.fi
.RE
.PP
Install every man page:
.PP
.RS
.nf
gateway man \-\-dir ~/.local/share/man/man1
.fi
.RE
"#;

const SEE_ALSO: &str = r#".SH "SEE ALSO"
\fBgateway\-shim\fR(1), \fBgateway\-serve\fR(1), \fBgateway\-install\fR(1),
\fBgateway\-doctor\fR(1), \fBgateway\-audit\fR(1), \fBgateway\-config\fR(1)
"#;
