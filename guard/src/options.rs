//! What the guard knows of some commands' options: their long options (so
//! an abbreviation is read the way getopt reads it: `rm --r` is
//! `--recursive`, `git push --fo` is ambiguous), which options take a
//! value (that value is not an operand), which values are files read or
//! written, and leading operands that are not paths (`chmod`'s mode,
//! `grep`'s pattern). A command not listed is read generically: every word
//! not starting with `-` is an operand, and a long option may be
//! abbreviated to any prefix.

use crate::pattern::Judged;

/// One command's options.
#[derive(Debug)]
pub(crate) struct Spec {
    pub(crate) names: &'static [&'static str],
    /// Every long option, for abbreviations; empty: any prefix is taken.
    pub(crate) long: &'static [&'static str],
    /// Long options that take a value (`--x=v` or `--x v`).
    pub(crate) long_values: &'static [&'static str],
    /// Short options that take a value (the rest of the group, or the next
    /// word).
    pub(crate) short_values: &'static str,
    /// Leading operands that are not paths...
    pub(crate) lead: usize,
    /// ...unless one of these options gives that operand instead.
    pub(crate) lead_given_by: &'static [&'static str],
    /// Options whose value is a file the command reads, and writes.
    pub(crate) reads: &'static [&'static str],
    pub(crate) writes: &'static [&'static str],
}

const NONE: &[&str] = &[];

const fn spec(names: &'static [&'static str]) -> Spec {
    Spec {
        names,
        long: NONE,
        long_values: NONE,
        short_values: "",
        lead: 0,
        lead_given_by: NONE,
        reads: NONE,
        writes: NONE,
    }
}

const GREP: &[&str] = &["-e", "-f", "--regexp", "--file", "--files", "--type-list"];

static SPECS: &[Spec] = &[
    Spec {
        long: &[
            "force",
            "interactive",
            "one-file-system",
            "no-preserve-root",
            "preserve-root",
            "recursive",
            "dir",
            "verbose",
            "help",
            "version",
        ],
        long_values: &["interactive", "preserve-root"],
        ..spec(&["rm"])
    },
    Spec {
        long: &[
            "changes",
            "silent",
            "quiet",
            "verbose",
            "no-preserve-root",
            "preserve-root",
            "reference",
            "recursive",
            "help",
            "version",
        ],
        long_values: &["reference"],
        lead: 1,
        lead_given_by: &["--reference"],
        ..spec(&["chmod"])
    },
    Spec {
        long: &[
            "changes",
            "dereference",
            "no-dereference",
            "from",
            "silent",
            "quiet",
            "no-preserve-root",
            "preserve-root",
            "reference",
            "recursive",
            "verbose",
            "help",
            "version",
        ],
        long_values: &["from", "reference"],
        lead: 1,
        lead_given_by: &["--reference"],
        ..spec(&["chown", "chgrp"])
    },
    Spec {
        // `git push`: git's parse-options takes a unique prefix too.
        long: &[
            "all",
            "branches",
            "mirror",
            "delete",
            "tags",
            "dry-run",
            "porcelain",
            "force",
            "force-with-lease",
            "force-if-includes",
            "repo",
            "set-upstream",
            "thin",
            "no-thin",
            "receive-pack",
            "exec",
            "verbose",
            "quiet",
            "progress",
            "prune",
            "no-verify",
            "verify",
            "follow-tags",
            "signed",
            "no-signed",
            "atomic",
            "push-option",
            "ipv4",
            "ipv6",
            "recurse-submodules",
            "no-force-with-lease",
        ],
        long_values: &["repo", "receive-pack", "exec", "push-option"],
        short_values: "o",
        ..spec(&["git push"])
    },
    Spec {
        long_values: &[
            "regexp",
            "file",
            "max-count",
            "context",
            "type",
            "glob",
            "iglob",
        ],
        short_values: "efmABCdDgtT",
        lead: 1,
        lead_given_by: GREP,
        reads: &["-f", "--file"],
        ..spec(&["grep", "egrep", "fgrep", "rg", "ag", "ack", "git grep"])
    },
    Spec {
        long_values: &[
            "message",
            "file",
            "author",
            "date",
            "reuse-message",
            "reedit-message",
            "fixup",
            "squash",
            "cleanup",
            "template",
            "trailer",
        ],
        short_values: "mFCct",
        reads: &["-F", "--file", "-t", "--template"],
        ..spec(&["git commit", "git tag", "git merge"])
    },
    Spec {
        long_values: &["expression", "file", "line-length"],
        short_values: "efl",
        lead: 1,
        lead_given_by: &["-e", "-f", "--expression", "--file"],
        reads: &["-f", "--file"],
        ..spec(&["sed", "gsed"])
    },
    Spec {
        long_values: &["file", "assign", "field-separator"],
        short_values: "fvF",
        lead: 1,
        lead_given_by: &["-f", "--file"],
        reads: &["-f", "--file"],
        ..spec(&["awk", "gawk", "mawk", "nawk"])
    },
    Spec {
        long_values: &[
            "from-file",
            "indent",
            "arg",
            "argjson",
            "slurpfile",
            "rawfile",
        ],
        short_values: "fL",
        lead: 1,
        lead_given_by: &["-f", "--from-file", "-n", "--null-input"],
        ..spec(&["jq", "yq", "gojq", "jaq"])
    },
    Spec {
        short_values: "iFoPlcJSDLRW",
        ..spec(&["scp", "sftp"])
    },
    Spec {
        long_values: &[
            "rsh",
            "exclude",
            "include",
            "filter",
            "files-from",
            "rsync-path",
        ],
        short_values: "efT",
        reads: &["--files-from"],
        ..spec(&["rsync"])
    },
    Spec {
        long_values: &[
            "output",
            "header",
            "user",
            "request",
            "user-agent",
            "referer",
            "cookie",
            "cookie-jar",
            "max-time",
            "connect-timeout",
            "retry",
            "proxy",
            "resolve",
            "cacert",
            "cert",
            "key",
            "data",
            "data-raw",
            "data-binary",
            "data-urlencode",
            "form",
            "json",
            "upload-file",
            "config",
            "write-out",
            "url",
        ],
        short_values: "oHuXAebmdFTKwxrYyzCE",
        reads: &["-T", "--upload-file", "-K", "--config"],
        writes: &["-o", "--output", "-c", "--cookie-jar"],
        ..spec(&["curl"])
    },
    Spec {
        long_values: &[
            "output-document",
            "output-file",
            "append-output",
            "input-file",
            "post-file",
            "body-file",
            "post-data",
            "body-data",
            "header",
            "user",
            "password",
            "directory-prefix",
            "method",
            "tries",
            "timeout",
        ],
        short_values: "OoaiPtTUe",
        reads: &["-i", "--input-file", "--post-file", "--body-file"],
        writes: &["-O", "--output-document", "-o", "--output-file"],
        ..spec(&["wget"])
    },
    Spec {
        long_values: &["output", "key", "field-separator", "temporary-directory"],
        short_values: "oktTS",
        writes: &["-o", "--output"],
        ..spec(&["sort"])
    },
    Spec {
        long_values: &["lines", "bytes"],
        short_values: "nc",
        ..spec(&["head", "tail"])
    },
    Spec {
        long_values: &["delimiter", "fields", "bytes", "characters"],
        short_values: "dfbc",
        ..spec(&["cut"])
    },
    Spec {
        long_values: &["target-directory", "suffix"],
        short_values: "tS",
        ..spec(&["cp", "mv", "install", "ln"])
    },
    Spec {
        long_values: &["file", "directory", "files-from", "exclude"],
        short_values: "fCTX",
        reads: &["-T", "--files-from"],
        ..spec(&["tar", "bsdtar", "gtar"])
    },
    Spec {
        short_values: "oIDLlx",
        writes: &["-o"],
        ..spec(&["gcc", "cc", "clang", "g++", "clang++", "c++"])
    },
];

/// `openssl SUBCOMMAND -in FILE -out FILE ...`: single-dash long options.
pub(crate) const OPENSSL_READS: &[&str] = &["-in", "-inkey", "-key", "-kfile", "-pass"];
pub(crate) const OPENSSL_WRITES: &[&str] = &["-out", "-keyout"];

/// The spec of `name` (`git push` for git's subcommand).
pub(crate) fn spec_of(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.names.contains(&name))
}

impl Spec {
    /// Does `--written` spell `--wanted` for this command? Equal, or a
    /// prefix of it and of no other long option: yes. A prefix of it and
    /// of others (getopt refuses it as ambiguous; an option list may be
    /// out of date): maybe. A command with no list takes any prefix.
    pub(crate) fn long_means(&self, written: &str, wanted: &str) -> Judged {
        if written == wanted {
            return Judged::Yes;
        }
        if written.is_empty() || !wanted.starts_with(written) || self.long.contains(&written) {
            return Judged::No;
        }
        let others = self
            .long
            .iter()
            .any(|other| *other != wanted && other.starts_with(written));
        if others { Judged::Maybe } else { Judged::Yes }
    }

    /// Does the long option `name` (as written, maybe abbreviated) take a
    /// value?
    pub(crate) fn long_takes_value(&self, name: &str) -> bool {
        self.long_values
            .iter()
            .any(|v| self.long_means(name, v) == Judged::Yes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn getopt_abbreviations() {
        let rm = spec_of("rm").unwrap();
        assert_eq!(rm.long_means("r", "recursive"), Judged::Yes);
        assert_eq!(rm.long_means("recursiv", "recursive"), Judged::Yes);
        assert_eq!(rm.long_means("recursivex", "recursive"), Judged::No);
        let push = spec_of("git push").unwrap();
        assert_eq!(push.long_means("force", "force"), Judged::Yes);
        assert_eq!(
            push.long_means("fo", "force"),
            Judged::Maybe,
            "or follow-tags"
        );
        assert_eq!(push.long_means("force-with-lease", "force"), Judged::No);
        assert_eq!(push.long_means("mir", "mirror"), Judged::Yes);
        let chown = spec_of("chown").unwrap();
        assert_eq!(
            chown.long_means("re", "recursive"),
            Judged::Maybe,
            "or reference"
        );
        assert_eq!(chown.long_means("rec", "recursive"), Judged::Yes);
        assert!(chown.long_takes_value("ref"));
        assert!(
            !chown.long_takes_value("re"),
            "ambiguous: getopt refuses it"
        );
    }
}
