//! Every kind of config mistake is reported with its file, line and key.

use super::*;

/// (what, config text, expected line, expected key, a fragment of the message)
pub(super) type Case = (
    &'static str,
    &'static str,
    usize,
    Option<&'static str>,
    &'static str,
);

#[test]
fn errors_name_file_line_and_key() {
    let cases: &[Case] = &[
        ("syntax", "[server\n", 1, Some("server"), "unclosed table"),
        (
            "breaker failures out of range",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nbreaker_failures = 1001\n",
            4,
            Some("subscriber[0].breaker_failures"),
            "out of range 0..=1000",
        ),
        (
            "breaker on a built-in",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nbreaker_cooldown_ms = 10\n",
            4,
            Some("subscriber[0].breaker_cooldown_ms"),
            "not used by built-in subscribers",
        ),
        (
            "unknown top key",
            "\nsocket = \"/x\"\n",
            2,
            Some("socket"),
            "unknown field",
        ),
        (
            "unknown server key",
            "[server]\nmax_conns = 3\n",
            2,
            Some("max_conns"),
            "unknown field",
        ),
        (
            "wrong type",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout_ms = \"fast\"\n",
            4,
            Some("timeout_ms"),
            "invalid type",
        ),
        (
            "unknown subscriber key",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout = 3\n",
            4,
            Some("timeout"),
            "unknown field",
        ),
        (
            "bad mode",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nmode = \"maybe\"\n",
            4,
            Some("mode"),
            "decide",
        ),
        (
            "bad on_error",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\non_error = \"explode\"\n",
            4,
            Some("on_error"),
            "allow",
        ),
        (
            "missing name",
            "[[subscriber]]\nendpoint = \"http://a:1\"\n",
            1,
            Some("subscriber"),
            "name",
        ),
        (
            "no endpoint",
            "[[subscriber]]\nname = \"p\"\n",
            2,
            Some("subscriber[0].endpoint"),
            "needs an `endpoint`",
        ),
        (
            "bad endpoint scheme",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"grpcs://a:1\"\n",
            3,
            Some("subscriber[0].endpoint"),
            "expected `http://host:port`, `https://host:port`",
        ),
        (
            "relative unix endpoint",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"unix://run/x.sock\"\n",
            3,
            Some("subscriber[0].endpoint"),
            per_os("absolute", "Unix-only"),
        ),
        (
            "duplicate name",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\n[[subscriber]]\nname = \"p\"\nendpoint = \"http://b:1\"\n",
            5,
            Some("subscriber[1].name"),
            "duplicate",
        ),
        (
            "timeout out of range",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntimeout_ms = 0\n",
            4,
            Some("subscriber[0].timeout_ms"),
            "out of range",
        ),
        (
            "unknown agent",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nagents = [\"cursor\",\n  \"vim\"]\n",
            5,
            Some("subscriber[0].agents[1]"),
            "`vim`",
        ),
        (
            "unknown event",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nevents = [\"PreToolUse\"]\n",
            4,
            Some("subscriber[0].events[0]"),
            "unknown event kind",
        ),
        (
            "bad glob",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntools = [\"a[b\"]\n",
            4,
            Some("subscriber[0].tools[0]"),
            "glob",
        ),
        (
            "empty filter",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\ntools = []\n",
            2,
            Some("subscriber[0].tools"),
            "matches nothing",
        ),
        (
            "builtin with endpoint",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"guard\"\nendpoint = \"http://a:1\"\n",
            4,
            Some("subscriber[0].endpoint"),
            "no endpoint",
        ),
        (
            "unknown builtin",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"firewall\"\n",
            3,
            Some("builtin"),
            "audit",
        ),
        (
            "rules on a remote",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"http://a:1\"\nrules = []\n",
            4,
            Some("subscriber[0].rules"),
            "only the built-in `guard`",
        ),
        (
            "observing guard",
            "[[subscriber]]\nname = \"p\"\nbuiltin = \"guard\"\nmode = \"observe\"\n",
            4,
            Some("subscriber[0].mode"),
            "only decides",
        ),
        (
            "bad regex",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\nshell = 'rm (-rf'\nreason = \"x\"\n",
            5,
            Some("subscriber[0].rules[0].shell"),
            "bad regex",
        ),
        (
            "rule without target",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [{ reason = \"x\" }]\n",
            4,
            Some("subscriber[0].rules[0]"),
            "needs one of",
        ),
        (
            "rule with two targets",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [\n  { shell = \"a\", file_path = \"b\", reason = \"x\" },\n]\n",
            5,
            Some("subscriber[0].rules[0].file_path"),
            "exactly one kind",
        ),
        (
            "modifier of another kind",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\npath = 'x'\nflags = [\"-f\"]\nreason = \"x\"\n",
            6,
            Some("subscriber[0].rules[0].flags"),
            "belongs to a `command` rule",
        ),
        (
            "bad flag spelling",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\ncommand = [\"rm\"]\nflags = [\"-rf\"]\nreason = \"x\"\n",
            6,
            Some("subscriber[0].rules[0].flags[0]"),
            "is not a flag",
        ),
        (
            "bad command name",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\ncommand = [\"/bin/rm\"]\nreason = \"x\"\n",
            5,
            Some("subscriber[0].rules[0].command[0]"),
            "not a command name",
        ),
        (
            "fetch without into",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\nfetch = [\"curl\"]\nreason = \"x\"\n",
            5,
            Some("subscriber[0].rules[0].into"),
            "needs `into`",
        ),
        (
            "bad operand regex",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\ncommand = [\"rm\"]\noperand = '('\nreason = \"x\"\n",
            6,
            Some("subscriber[0].rules[0].operand"),
            "bad regex",
        ),
        (
            "a pattern too large once folded to no case",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\ncase_insensitive = true\n[[subscriber.rules]]\npath = '(^|/)(?:ks){12000}\\.env$'\nreason = \"x\"\n",
            6,
            Some("subscriber[0].rules[0]"),
            "too large to compile without case",
        ),
        (
            "bad action",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\n[[subscriber.rules]]\ncommand = [\"rm\"]\naction = \"allow\"\nreason = \"x\"\n",
            6,
            Some("action"),
            "unknown variant",
        ),
        (
            "unknown rule key",
            "[[subscriber]]\nname = \"g\"\nbuiltin = \"guard\"\nrules = [{ shel = \"a\", reason = \"x\" }]\n",
            4,
            Some("shel"),
            "unknown field",
        ),
        (
            "relative audit path",
            "[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = \"audit.jsonl\"\n",
            4,
            Some("subscriber[0].path"),
            "absolute",
        ),
        (
            "relative socket",
            "[server]\nsocket = \"gw.sock\"\n",
            2,
            Some("server.socket"),
            per_os("absolute", r"\\.\pipe\NAME"),
        ),
        (
            "bad name",
            "[[subscriber]]\nname = \"my policy\"\nendpoint = \"http://a:1\"\n",
            2,
            Some("subscriber[0].name"),
            "characters",
        ),
    ];
    check(cases);
}

/// What only the other platform can use is an error naming file, line and
/// key: on Windows a `unix://` endpoint, a socket path or an audit path
/// without a drive; on Unix a pipe name or a drive path. (What each accepts:
/// `semantics::a_full_remote_subscriber` and `tilde_audit_paths_expand_to_home`.)
#[test]
fn platform_values_name_file_line_and_key() {
    let windows: &[Case] = &[
        (
            "unix endpoint",
            "[[subscriber]]\nname = \"p\"\nendpoint = \"unix:///run/x.sock\"\n",
            3,
            Some("subscriber[0].endpoint"),
            "`unix://` endpoints are Unix-only",
        ),
        (
            "socket path",
            "[server]\nsocket = \"/run/gw.sock\"\n",
            2,
            Some("server.socket"),
            r"a named pipe: `\\.\pipe\NAME`",
        ),
        (
            "audit path without a drive",
            "[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = \"/var/log/a.jsonl\"\n",
            4,
            Some("subscriber[0].path"),
            "absolute",
        ),
    ];
    let unix: &[Case] = &[
        (
            "pipe name",
            "[server]\nsocket = '\\\\.\\pipe\\gw'\n",
            2,
            Some("server.socket"),
            "absolute",
        ),
        (
            "drive path",
            "[[subscriber]]\nname = \"a\"\nbuiltin = \"audit\"\npath = 'C:\\logs\\a.jsonl'\n",
            4,
            Some("subscriber[0].path"),
            "absolute",
        ),
    ];
    check(per_os(unix, windows));
}

/// Each case is rejected with its file, line, key and message fragment.
pub(super) fn check(cases: &[Case]) {
    for (what, text, line, key, fragment) in cases {
        let err = match parse(text) {
            Ok(_) => panic!("{what}: accepted"),
            Err(err) => err,
        };
        assert_eq!(err.file, "gw.toml", "{what}");
        assert_eq!(err.line, *line, "{what}: {err}");
        assert_eq!(err.key.as_deref(), *key, "{what}: {err}");
        assert!(err.message.contains(fragment), "{what}: {err}");
        let shown = err.to_string();
        assert!(
            shown.starts_with(&format!("gw.toml:{line}:")),
            "{what}: {shown}"
        );
    }
}

/// The rules of the other platform too: a Windows gateway's socket is a
/// pipe name and it cannot reach `unix://` endpoints; a Unix one takes an
/// absolute path.
#[test]
fn sockets_and_endpoints_follow_the_platform() {
    use crate::error::Locator;
    use crate::values::{Platform, check_endpoint, check_socket};

    let text = "[server]\nsocket = \"x\"\n";
    let at = Locator {
        file: "gw.toml",
        text,
    };
    let value = |v: &str| toml::Spanned::new(18..21, v.to_owned());
    let socket = |v: &str, platform| check_socket(&at, &value(v), "server.socket", platform);
    let endpoint = |v: &str, platform| check_endpoint(&at, v, 18..21, "e", platform);

    assert!(socket("/run/gw.sock", Platform::Unix).is_ok());
    assert!(socket(r"\\.\pipe\hookgate-ada\gateway", Platform::Unix).is_err());
    assert!(socket(r"\\.\PIPE\gw", Platform::Windows).is_ok());
    for bad in ["/run/gw.sock", r"C:\gw.sock", r"\\.\pipe\", "gw"] {
        let err = socket(bad, Platform::Windows).unwrap_err();
        assert_eq!((err.line, err.key.as_deref()), (2, Some("server.socket")));
        assert!(err.message.contains(r"\\.\pipe\NAME"), "{bad}: {err}");
    }

    assert!(endpoint("unix:///run/s.sock", Platform::Unix).is_ok());
    let err = endpoint("unix:///run/s.sock", Platform::Windows).unwrap_err();
    assert!(err.message.contains("Unix-only"), "{err}");
    assert_eq!((err.line, err.key.as_deref()), (2, Some("e")));
    for platform in [Platform::Unix, Platform::Windows] {
        assert!(endpoint("http://127.0.0.1:1", platform).is_ok());
        assert!(endpoint("https://policy.example:443", platform).is_ok());
    }
}

#[test]
fn load_reads_the_file_or_reports_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gw.toml");
    std::fs::write(&path, "[server]\nbogus = 1\n").unwrap();
    let err = Config::load(Some(&path)).unwrap_err();
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!("{}:2:", path.display())),
        "{shown}"
    );
    assert!(shown.contains("`bogus`"), "{shown}");

    let missing = dir.path().join("nope.toml");
    assert!(matches!(
        Config::load(Some(&missing)),
        Err(LoadError::Read { .. })
    ));
}
