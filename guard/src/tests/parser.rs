//! The parser's facts and its conservative reading of broken lines (the
//! default rules on broken and hostile lines are the gateway's tests).

use crate::budget::Budget;
use crate::shell::{Parsed, Place};

fn parse(line: &str, cwd: Option<&str>) -> Parsed {
    let place = Place {
        cwd,
        home: Some("/home/dev"),
        fold: false,
    };
    crate::shell::parse(line, place, &mut Budget::unlimited())
}

fn names(line: &str) -> Vec<String> {
    parse(line, None)
        .commands
        .into_iter()
        .map(|c| c.name)
        .collect()
}

#[test]
fn every_simple_command_is_found_and_unwrapped() {
    assert_eq!(
        names("a | b && c; (d) || echo $(e) `f` <(g)"),
        ["a", "b", "c", "d", "e", "f", "g", "echo"]
    );
    assert_eq!(
        names("sudo -u x env A=1 nice -n 5 /usr/bin/rm -f y"),
        ["sudo", "env", "nice", "rm"]
    );
    assert_eq!(
        names("command -v rm"),
        ["command"],
        "`command -v` runs nothing"
    );
    assert_eq!(names("find . -exec grep -l x {} +"), ["find", "grep"]);
    assert_eq!(names("bash -c 'sh -c \"ls\"'"), ["bash", "sh", "ls"]);
    // bash's `eval` takes one `--`; a second is the code's first word.
    assert_eq!(names("eval -- rm -rf /"), ["eval", "rm"]);
    assert_eq!(
        names("builtin eval -- 'rm -rf /'"),
        ["builtin", "eval", "rm"]
    );
    assert_eq!(names("eval -- -- rm"), ["eval", "--"]);
    // `hash -p PATH NAME`: NAME runs PATH from then on.
    assert_eq!(names("hash -p /bin/rm ls; ls -f x"), ["hash", "ls", "rm"]);
    assert_eq!(names("hash -dp /bin/rm a b; b"), ["hash", "b", "rm"]);
    assert_eq!(names("hash ls; ls"), ["hash", "ls"]);
    // `mapfile -C CALLBACK`: the callback runs, the index and line after.
    assert_eq!(names("mapfile -C 'rm -f' -c1 < l"), ["mapfile", "rm"]);
    assert_eq!(names("readarray -tC'rm -f' < l"), ["readarray", "rm"]);
    assert_eq!(names("mapfile -u 3 -C rm"), ["mapfile", "rm"]);
    assert_eq!(names("mapfile -c C x"), ["mapfile"]);
    assert_eq!(
        names("r\\\nm -rf ~"),
        ["rm"],
        "a line continuation inside a word"
    );
    let piped = parse("curl x | tee y | sh", None);
    assert_eq!(piped.commands[2].stdin, ["curl", "tee"]);
}

#[test]
fn words_are_expanded_as_far_as_known() {
    let args = |line: &str| -> Vec<String> {
        parse(line, None)
            .commands
            .last()
            .unwrap()
            .args
            .iter()
            .map(|a| a.text.clone())
            .collect()
    };
    assert_eq!(
        args(r#"x=/a; y="$x/b"; ls "$y" ${x} $'c\td' 'e'"f" \g ~/h"#),
        ["/a/b", "/a", "c\td", "ef", "g", "~/h"]
    );
    assert_eq!(args("ls $UNSET"), ["\u{FFFD}"]);
    assert_eq!(
        args("x=$(pwd); ls $x"),
        ["\u{FFFD}"],
        "an unknown value stays unknown"
    );
    let cd = parse("cd /srv && cd app && ls", Some("/home/dev"));
    assert_eq!(cd.commands.last().unwrap().cwd, "/srv/app");
}

#[test]
fn a_line_that_does_not_parse_is_also_split_at_operators() {
    let parsed = parse("echo 'oops; rm -rf / #", None);
    assert!(parsed.unparsed);
    assert!(
        parsed.commands.iter().any(|c| c.name == "rm"),
        "{:?}",
        parsed.commands
    );
}
