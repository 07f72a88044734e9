//! Unknown means dangerous: a word the line does not say is judged as the
//! worst it could be where a rule looks at it (an ask where the agent can
//! ask, else a deny); what the line does say is certain.

use hookgate_adapters::Permission;
use regex::Regex;

use super::shell;
use crate::argv::Flag;
use crate::facts::Access;
use crate::rules::{CommandRule, PathRule};
use crate::{Action, Guard, Matcher, Rule};

fn guard() -> Guard {
    let recursive_delete = CommandRule {
        names: vec!["rm".into()],
        subcommands: Vec::new(),
        flags: vec![Flag::Short('r'), Flag::Long("recursive".into())],
        without_flags: Vec::new(),
        operand: Some(Regex::new("^(/|~|/etc|/usr)$").unwrap()),
    };
    let env_read = PathRule {
        pattern: Regex::new(r"(^|/)\.env$").unwrap(),
        unless: None,
        access: Access::Read,
    };
    Guard::new(vec![
        Rule {
            id: "delete".into(),
            matcher: Matcher::Command(recursive_delete),
            action: Action::Deny,
            reason: "delete".into(),
        },
        Rule {
            id: "env".into(),
            matcher: Matcher::Path(env_read),
            action: Action::Deny,
            reason: "env".into(),
        },
    ])
    .with_home(Some("/home/dev".into()))
    .with_case_folding(false)
}

fn verdict(guard: &Guard, line: &str, can_ask: bool) -> Permission {
    let mut event = shell(line);
    event.capabilities.ask = can_ask;
    guard.decide(&event).permission
}

#[test]
fn an_unknown_word_where_a_rule_looks_asks_or_denies() {
    let guard = guard();
    for line in [
        r#"rm -rf "$TARGET_DIR""#,
        r#"rm -rf "$X/etc""#,
        r#"cat "$f""#,
        "cat $(git ls-files)",
        r#"for f in $(git ls-files); do cat "$f"; done"#,
        ": ${d:=/}; rm -rf $d",
        "$CMD -rf /",
        r#"eval "$x""#,
        r#"cd "$X" && rm -rf *"#,
        "git ls-files | xargs cat",
        "rm -rf ~root",
        "rm -rf ${BUILD:-build}",
    ] {
        assert_eq!(verdict(&guard, line, true), Permission::Ask, "{line}");
        assert_eq!(verdict(&guard, line, false), Permission::Deny, "{line}");
    }
}

#[test]
fn a_known_part_can_rule_the_worst_out() {
    let guard = guard();
    for line in [
        r#"rm -rf "$BUILD_DIR/out""#,
        r#"cat "$f.txt""#,
        r#"rm -f "$X""#,
        r#"rm "$X" build"#,
        r#"wc -l "$f""#,
        r#"echo "$X" > "$LOG""#,
        "for f in src/*.ts; do cat \"$f\"; done",
        "cat *.md src/*",
    ] {
        assert_eq!(
            verdict(&guard, line, true),
            Permission::Unspecified,
            "{line}"
        );
    }
}

#[test]
fn what_the_line_says_is_certain() {
    let guard = guard();
    for line in [
        "for d in / ~; do rm -rf \"$d\"; done",
        "for d in /*; do rm -rf \"$d\"; done",
        "f() { rm -rf \"$1\"; }; f /",
        "nuke() { rm -rf \"$@\"; }; nuke ~",
        "set -- /; rm -rf \"$1\"",
        "sh -c 'rm -rf \"$1\"' _ ~",
        "echo / | xargs rm -rf",
        "echo / | xargs -I % rm -rf %",
        "find ~ -print0 | xargs -0 rm -rf",
        "parallel rm -rf ::: / ~",
        "read -r d <<< /; rm -rf \"$d\"",
        "printf -v d '%s' /; rm -rf \"$d\"",
        "dirs=(/ ~); rm -rf \"${dirs[@]}\"",
        "d=x/; rm -rf ${d#x}",
        "\"$(echo rm)\" -rf ~",
        "rm -rf \"$(pwd)/..\"",
        "cd \"$(dirname \"$(pwd)\")\" && rm -rf *",
        "rm -rf /{etc,usr}",
        "rm -rf /[e]tc",
        "rm -rf /e*",
        "$'\\162\\155' -rf ~",
        "$\"rm\" -rf /",
        "r\\\nm -rf ~",
        "rm --r /",
        "rm --re --fo ~",
        "rm -rf ~+/..",
        "cd -P / && rm -rf *",
        "builtin cd / && rm -rf *",
        "eval \"cd /\" && rm -rf *",
        "cd -- ~ && rm -rf ./*",
        "find -L / -delete",
        "busybox rm -rf /",
        "timeout -s KILL 60 rm -rf /",
        "script -qc 'rm -rf ~' /dev/null",
        "time { rm -rf /; }",
        "git rebase --exec 'rm -rf ~' HEAD~1",
        "echo 'rm -rf /' | (bash)",
        "trap 'rm -rf ~' EXIT",
        "cat .e*",
        "find . -name .env -exec cat {} +",
        "echo .env | xargs cat",
        "show() { cat \"$1\"; }; show .env",
    ] {
        assert_eq!(verdict(&guard, line, true), Permission::Deny, "{line}");
    }
}

#[test]
fn case_folds_where_the_file_system_does() {
    let unfolded = guard();
    let folded = guard().with_case_folding(true);
    for line in ["CAT .ENV", "cat .Env", "RM -rf ~", "Rm -rf /USR"] {
        assert_eq!(verdict(&folded, line, true), Permission::Deny, "{line}");
        assert_eq!(
            verdict(&unfolded, line, true),
            Permission::Unspecified,
            "{line}"
        );
    }
    let home = "cat /HOME/DEV/.env";
    assert_eq!(verdict(&folded, home, true), Permission::Deny);
}

/// A rule that grows past the guard's size limit once folded to no case
/// (the config accepts it: it compiles unfolded) is not judged with case
/// instead, nor skipped: a call it could apply to asks (or denies), and
/// the guard names the rule so a config can refuse it.
#[test]
fn a_rule_too_large_to_fold_judges_the_worst() {
    let big = || Regex::new(r"(^|/)(?:ks){12000}\.env$").unwrap();
    let rules = || {
        vec![
            Rule {
                id: "big-path".into(),
                matcher: Matcher::Path(PathRule {
                    pattern: big(),
                    unless: None,
                    access: Access::Read,
                }),
                action: Action::Deny,
                reason: "big path".into(),
            },
            Rule {
                id: "big-operand".into(),
                matcher: Matcher::Command(CommandRule {
                    names: vec!["rm".into()],
                    subcommands: Vec::new(),
                    flags: Vec::new(),
                    without_flags: Vec::new(),
                    operand: Some(big()),
                }),
                action: Action::Deny,
                reason: "big operand".into(),
            },
        ]
    };
    let unfolded = Guard::new(rules()).with_case_folding(false);
    assert!(unfolded.uncompiled().is_empty());
    let folded = Guard::new(rules()).with_case_folding(true);
    assert_eq!(folded.uncompiled(), ["big-path", "big-operand"]);
    for line in ["cat notes.txt", "ls -la"] {
        assert_eq!(
            verdict(&unfolded, line, true),
            Permission::Unspecified,
            "{line}"
        );
        assert_eq!(verdict(&folded, line, true), Permission::Ask, "{line}");
        assert_eq!(verdict(&folded, line, false), Permission::Deny, "{line}");
    }
}
