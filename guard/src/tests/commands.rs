//! `commands`: the parsed line as code outside the guard sees it.

use crate::{MAX_LINE_BYTES, ShellCommand, commands};

fn only(line: &str) -> ShellCommand {
    let parsed = commands(line, Some("/home/dev/acme"), Some("/home/dev"));
    assert!(parsed.resolved, "{line}: resolved");
    let [command] = <[ShellCommand; 1]>::try_from(parsed.commands)
        .unwrap_or_else(|all| panic!("{line}: one command, got {all:?}"));
    command
}

#[test]
fn one_command_split_into_name_flags_and_operands() {
    let c = only("/usr/bin/terraform destroy -auto-approve --target=x -- -y");
    assert_eq!(c.name, "terraform");
    assert_eq!(
        c.args,
        ["destroy", "-auto-approve", "--target=x", "--", "-y"]
    );
    // A single-dash word is a group of short flags, as getopt reads it.
    assert_eq!(
        c.flags,
        [
            "-a", "-u", "-t", "-o", "-a", "-p", "-p", "-r", "-o", "-v", "-e", "--target"
        ]
    );
    assert_eq!(c.operands, ["destroy", "-y"]);
    assert_eq!(c.cwd.as_deref(), Some("/home/dev/acme"));
}

#[test]
fn wrappers_quotes_and_sh_c_are_seen_through() {
    let parsed = commands(
        r#"sudo "rm" -rf ~/build && bash -c 'cd /tmp && git push -f'"#,
        Some("/home/dev/acme"),
        Some("/home/dev/"),
    );
    assert!(parsed.resolved);
    let names: Vec<&str> = parsed.commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["sudo", "rm", "bash", "cd", "git"]);
    let rm = &parsed.commands[1];
    assert_eq!(rm.flags, ["-r", "-f"]);
    assert_eq!(
        rm.operands,
        ["/home/dev/build"],
        "`~` is the home directory"
    );
    let push = &parsed.commands[4];
    assert_eq!(push.cwd.as_deref(), Some("/tmp"), "after a literal `cd`");
    assert_eq!(push.operands, ["push"]);
    assert_eq!(push.flags, ["-f"]);
}

#[test]
fn unknown_words_and_broken_lines_are_not_resolved() {
    let unknown = commands("rm -rf $TARGET", None, None);
    assert!(!unknown.resolved, "an unknown variable");
    assert_eq!(unknown.commands[0].operands, ["\u{fffd}"]);
    let substituted = commands("echo $(date)", None, None);
    assert!(!substituted.resolved);
    assert_eq!(
        substituted
            .commands
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["date", "echo"]
    );
    let broken = commands("ls && (rm -rf /", None, None);
    assert!(!broken.resolved, "a line that does not parse");
    assert!(broken.commands.iter().any(|c| c.name == "rm"));
    let known = commands("A=/tmp; rm -r $A", None, None);
    assert!(known.resolved, "a variable the line assigns literally");
    assert_eq!(known.commands[0].operands, ["/tmp"]);
}

#[test]
fn past_a_bound_nothing_is_resolved() {
    let long = format!("echo {}", "x".repeat(MAX_LINE_BYTES));
    let parsed = commands(&long, None, None);
    assert!(!parsed.resolved);
    assert!(parsed.commands.is_empty());
    // No home, a relative one, or none known: `~` stays as written.
    for home in [None, Some("relative"), Some("/")] {
        assert_eq!(only_with_home("ls ~", home).operands, ["~"]);
    }
}

fn only_with_home(line: &str, home: Option<&str>) -> ShellCommand {
    let mut parsed = commands(line, None, home);
    assert_eq!(parsed.commands.len(), 1);
    parsed.commands.remove(0)
}
