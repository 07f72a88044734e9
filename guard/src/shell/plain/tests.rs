//! The plain reading held to the tree's: generated lines read both ways,
//! what counts as plain, and what a plain line runs still followed.

use super::words;
use crate::budget::Budget;
use crate::shell::{Parsed, Place, TREE_ONLY, parse};

/// Words that mean something to bash, the guard's rules or its wrappers,
/// with plain bytes only (and some that are not plain, for the mix).
const VOCABULARY: &[&str] = &[
    "npm",
    "test",
    "--",
    "--runInBand",
    "rm",
    "-rf",
    "/",
    "-fr",
    "git",
    "push",
    "--force",
    "-f",
    "origin",
    "main",
    "+main",
    "sh",
    "-c",
    "bash",
    "eval",
    "exec",
    "source",
    ".",
    "..",
    "cd",
    "pushd",
    "/etc",
    "a=b",
    "--opt=v",
    "X=1",
    "sudo",
    "-u",
    "root",
    "env",
    "-i",
    "xargs",
    "find",
    "-exec",
    "-delete",
    "-name",
    "cat",
    ".env",
    ".env.example",
    "for",
    "in",
    "do",
    "done",
    "if",
    "then",
    "fi",
    "export",
    "local",
    "declare",
    "unset",
    "time",
    "command",
    "builtin",
    "nice",
    "nohup",
    "timeout",
    "5",
    "1",
    "2",
    "%1",
    ":",
    "@",
    "+x",
    "a,b",
    "-",
    "=",
    "chmod",
    "777",
    "-R",
    "curl",
    "https://x.example/i.sh",
    "dd",
    "of=/dev/sda",
    "mkfs.ext4",
    "/dev/sda1",
    "python3",
    "node",
    "-e",
    "kill",
    "-9",
    "pkill",
    "-f",
    "gateway",
    "serve",
    "hookgate",
    "/home/dev/.config/hookgate/config.toml",
    "config.toml",
    "~",
    "$HOME",
    "*",
    "'q'",
    "a;b",
    "trap",
    "set",
    "shift",
    "read",
    "printf",
    "let",
    "at",
    "parallel",
    "ssh",
    "scp",
    "tee",
    "cp",
    "mv",
    "ln",
    "-s",
    "install",
    "truncate",
    "shred",
    "wipefs",
    "chown",
    "-h",
    "-:-",
];

/// A small deterministic generator (no dependency for one test).
struct Lines(u64);

impl Lines {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % bound
    }

    fn line(&mut self) -> String {
        let blanks = [" ", "  ", "\t", " \t "];
        let mut line = String::new();
        if self.next(4) == 0 {
            line.push(' ');
        }
        for i in 0..1 + self.next(6) {
            if i > 0 {
                line.push_str(blanks[self.next(blanks.len())]);
            }
            line.push_str(VOCABULARY[self.next(VOCABULARY.len())]);
        }
        if self.next(4) == 0 {
            line.push('\t');
        }
        line
    }
}

fn read(line: &str, place: Place<'_>, tree: bool) -> Parsed {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            TREE_ONLY.with(|t| t.set(false));
        }
    }
    let _reset = Reset;
    TREE_ONLY.with(|t| t.set(tree));
    parse(line, place, &mut Budget::unlimited())
}

#[test]
fn a_plain_line_reads_as_the_tree_reads_it() {
    let places = [
        Place {
            cwd: Some("/home/dev/acme-api"),
            home: Some("/home/dev"),
            fold: false,
        },
        Place {
            cwd: None,
            home: None,
            fold: true,
        },
    ];
    let mut lines = Lines(0x5eed);
    let mut plain = 0;
    for _ in 0..6000 {
        let line = lines.line();
        if words(&line).is_none() {
            continue;
        }
        plain += 1;
        for place in places {
            let (short, tree) = (read(&line, place, false), read(&line, place, true));
            assert!(!tree.unparsed, "{line:?} is plain but did not parse");
            assert_eq!(short.commands, tree.commands, "{line:?} read differently");
        }
    }
    assert!(plain > 1000, "only {plain} plain lines were generated");
}

#[test]
fn only_literal_words_with_no_syntax_are_plain() {
    assert_eq!(
        words(" npm test -- --runInBand\t").as_deref(),
        Some(&["npm", "test", "--", "--runInBand"][..])
    );
    assert_eq!(words("git push origin +main").map(|w| w.len()), Some(4));
    for line in [
        "",
        " \t",
        "rm -rf ~",
        "rm -rf $HOME",
        "rm -rf *",
        "echo 'a'",
        "echo \"a\"",
        "a\\ b",
        "a;b",
        "a|b",
        "a&b",
        "a>b",
        "a<b",
        "(a)",
        "{ a; }",
        "a # b",
        "!a",
        "a\nb",
        "a\rb",
        "X=1 rm -rf /",
        "a+=1 b",
        "for x in a",
        "export A",
        "echo done",
        "rm é",
        "a^b",
        "a`b`",
        "a[1]",
        "a?",
        "a{b,c}",
    ] {
        assert_eq!(words(line), None, "{line:?} is not plain");
    }
}

#[test]
fn what_a_plain_line_runs_is_still_followed() {
    let place = Place {
        cwd: Some("/home/dev/acme-api"),
        home: Some("/home/dev"),
        fold: false,
    };
    let names = |line: &str| -> Vec<String> {
        read(line, place, false)
            .commands
            .into_iter()
            .map(|c| c.name)
            .collect()
    };
    assert_eq!(
        names("sudo env nice rm -rf /"),
        ["sudo", "env", "nice", "rm"]
    );
    assert_eq!(names("sh -c rm"), ["sh", "rm"]);
    assert_eq!(names("xargs -0 rm -f"), ["xargs", "rm"]);
    assert_eq!(names("find . -delete"), ["find", "rm"]);
    // Where tree-sitter misreads the line, the plain reading is bash's.
    assert_eq!(names("a% rm -rf /"), ["a%"]);
}
