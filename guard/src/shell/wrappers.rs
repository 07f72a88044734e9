//! Commands that run other commands: `sudo rm`, `env X=1 rm`, `timeout 5
//! rm`, `flock FILE rm`, `su -c CODE`, `busybox rm`, `git rebase --exec
//! CODE`, `watch CMD`, ... Each wrapper is a row of [`WRAPPERS`]: its
//! options that take a value, the operands before the command, the options
//! whose value is shell code, the options after which nothing runs. The
//! wrapper stays a command of its own; what it runs is added after it with
//! its stdin, redirections and working directory.

use super::scope::Scope;
use super::walk::{Walker, wrapped};
use super::{Simple, Word};
use crate::paths;

/// One wrapper's options.
struct Wrap {
    names: &'static [&'static str],
    /// Short options that take a value.
    short: &'static str,
    /// Long options that take a value (`--x v` or `--x=v`).
    long: &'static [&'static str],
    /// Operands before the command (a duration, a lock file, a new root).
    lead: usize,
    /// Options whose value is shell code.
    code: &'static [&'static str],
    /// Options after which no command runs (`command -v`, `taskset -p`).
    none: &'static [&'static str],
    /// Options whose value is the command's working directory.
    chdir: &'static [&'static str],
    /// Runs the command in this same shell (`command cd`).
    same_shell: bool,
}

const fn wrap(names: &'static [&'static str]) -> Wrap {
    Wrap {
        names,
        short: "",
        long: &[],
        lead: 0,
        code: &[],
        none: &[],
        chdir: &[],
        same_shell: false,
    }
}

static WRAPPERS: &[Wrap] = &[
    Wrap {
        short: "ugCDhprtTUR",
        long: &[
            "user",
            "group",
            "chdir",
            "prompt",
            "host",
            "role",
            "type",
            "other-user",
            "close-from",
            "command-timeout",
            "chroot",
        ],
        none: &["-v", "-V", "-l", "-K", "--validate", "--list", "--version"],
        chdir: &["-D", "--chdir"],
        ..wrap(&["sudo"])
    },
    Wrap {
        short: "uC",
        ..wrap(&["doas"])
    },
    Wrap {
        short: "ugD",
        long: &[
            "user",
            "group",
            "chdir",
            "unit",
            "property",
            "description",
            "slice",
            "nice",
            "setenv",
        ],
        chdir: &["-D", "--chdir"],
        ..wrap(&["run0"])
    },
    Wrap {
        long: &["user"],
        ..wrap(&["pkexec"])
    },
    Wrap {
        short: "a",
        ..wrap(&["exec"])
    },
    Wrap {
        none: &["-v", "-V"],
        same_shell: true,
        ..wrap(&["command"])
    },
    Wrap {
        same_shell: true,
        ..wrap(&["builtin"])
    },
    wrap(&[
        "nohup",
        "setsid",
        "chronic",
        "unbuffer",
        "eatmydata",
        "fakeroot",
        "torsocks",
        "coproc",
        "nocache",
        "catchsegv",
    ]),
    Wrap {
        short: "f",
        ..wrap(&["proxychains", "proxychains4"])
    },
    Wrap {
        short: "tw",
        ..wrap(&["caffeinate"])
    },
    Wrap {
        short: "fo",
        long: &["format", "output"],
        ..wrap(&["time"])
    },
    Wrap {
        short: "n",
        long: &["adjustment"],
        ..wrap(&["nice"])
    },
    Wrap {
        short: "cnpPu",
        long: &["class", "classdata", "pid", "pgid", "uid"],
        none: &["-p", "-P", "-u", "--pid", "--pgid", "--uid"],
        ..wrap(&["ionice"])
    },
    Wrap {
        short: "sk",
        long: &["signal", "kill-after"],
        lead: 1,
        ..wrap(&["timeout", "gtimeout"])
    },
    Wrap {
        short: "ioe",
        long: &["input", "output", "error"],
        ..wrap(&["stdbuf"])
    },
    Wrap {
        lead: 1,
        none: &["-p", "--pid", "-a", "--all-tasks"],
        ..wrap(&["taskset"])
    },
    Wrap {
        short: "TPD",
        long: &["sched-runtime", "sched-period", "sched-deadline"],
        lead: 1,
        none: &["-p", "--pid", "-m", "--max"],
        ..wrap(&["chrt"])
    },
    Wrap {
        short: "wEc",
        long: &["timeout", "conflict-exit-code", "command"],
        lead: 1,
        code: &["-c", "--command"],
        ..wrap(&["flock"])
    },
    Wrap {
        long: &["userspec", "groups"],
        lead: 1,
        ..wrap(&["chroot"])
    },
    Wrap {
        short: "SGRw",
        long: &["setuid", "setgid", "root", "wd"],
        chdir: &["-w", "--wd"],
        ..wrap(&["unshare"])
    },
    Wrap {
        short: "tSGrwTu",
        long: &["target", "setuid", "setgid", "root", "wd"],
        ..wrap(&["nsenter"])
    },
    Wrap {
        short: "oepsuEabIOPSX",
        none: &["-p", "--attach"],
        ..wrap(&["strace", "ltrace"])
    },
    Wrap {
        short: "pEMuHs",
        long: &[
            "property",
            "setenv",
            "machine",
            "unit",
            "description",
            "slice",
            "uid",
            "gid",
            "nice",
            "working-directory",
            "host",
            "on-active",
            "on-calendar",
            "timer-property",
        ],
        chdir: &["--working-directory"],
        ..wrap(&["systemd-run"])
    },
    Wrap {
        short: "cEIOTB",
        long: &[
            "command",
            "echo",
            "log-in",
            "log-out",
            "log-timing",
            "log-io",
        ],
        code: &["-c", "--command"],
        none: &["-V", "--version"],
        ..wrap(&["script"])
    },
    Wrap {
        short: "cgGsw",
        long: &[
            "command",
            "session-command",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
        code: &["-c", "--command", "--session-command"],
        ..wrap(&["su", "runuser"])
    },
    Wrap {
        short: "c",
        lead: 1,
        code: &["-c"],
        ..wrap(&["sg"])
    },
    Wrap {
        long: &["arch"],
        ..wrap(&["arch"])
    },
    Wrap {
        short: "lpe",
        long: &["limit", "pid", "exe"],
        ..wrap(&["cpulimit"])
    },
    Wrap {
        short: "aEPt",
        ..wrap(&["ssh-agent"])
    },
    Wrap {
        short: "nsfewp",
        long: &[
            "server-num",
            "server-args",
            "auth-file",
            "error-file",
            "wait",
        ],
        ..wrap(&["xvfb-run"])
    },
    // The applet is the first operand.
    wrap(&["busybox", "toybox"]),
];

/// Does `name` run another command given as its words (so its own
/// operands are that command's, not files it reads)?
pub(crate) fn runs_another(name: &str) -> bool {
    matches!(name, "env" | "xargs" | "parallel" | "watch")
        || WRAPPERS.iter().any(|w| w.names.contains(&name))
}

impl Walker<'_, '_> {
    /// Adds what the wrapper `name` runs, if it is one.
    pub(super) fn wrapper(
        &mut self,
        name: &str,
        simple: Simple,
        shell: &mut Scope,
        env: &Scope,
        hops: usize,
    ) {
        match name {
            "env" => return self.env(simple, shell, env, hops),
            "git" => return self.git(simple, env),
            "watch" => {
                let words = super::special::watch_command(&simple.args);
                let code = super::run::joined(&words);
                let mut child = env.child();
                return self.code(&code, &mut child, simple.stdin.clone());
            }
            _ => {}
        }
        let Some(w) = WRAPPERS.iter().find(|w| w.names.contains(&name)) else {
            return;
        };
        let mut cwd = simple.cwd.clone();
        let mut lead = w.lead;
        let mut words = simple.args.iter().peekable();
        let mut options = true;
        while let Some(word) = words.peek() {
            let text = word.text.as_str();
            if options && text == "--" {
                options = false;
                words.next();
                continue;
            }
            if options && text.starts_with('-') && text.len() > 1 {
                words.next();
                let (option, value) = option_value(w, text, &mut words);
                if w.none.contains(&option.as_str()) {
                    return;
                }
                if w.code.contains(&option.as_str()) {
                    if let Some(code) = value {
                        let mut child = env.child();
                        self.code(&code, &mut child, simple.stdin.clone());
                    }
                    return;
                }
                if w.chdir.contains(&option.as_str())
                    && let Some(dir) = value
                {
                    cwd = paths::join(&cwd, &dir.text);
                }
                continue;
            }
            if lead > 0 {
                lead -= 1;
                words.next();
                continue;
            }
            break;
        }
        // `time { rm -rf /; }`, `time ! cmd`: the group's first command.
        let rest: Vec<Word> = words
            .skip_while(|w| matches!(w.text.as_str(), "{" | "!" | "("))
            .cloned()
            .collect();
        let Some(inner) = wrapped(simple, rest, cwd) else {
            return;
        };
        match w.same_shell {
            true => self.emit(inner, shell, env, hops + 1),
            false => {
                let mut child = shell.child();
                self.emit(inner, &mut child, env, hops + 1);
            }
        }
    }
}

/// An option word of `w` (its letters or long name) and its value (the
/// rest of the group, after `=`, or the next word).
fn option_value<'a>(
    w: &Wrap,
    text: &str,
    words: &mut std::iter::Peekable<impl Iterator<Item = &'a Word>>,
) -> (String, Option<Word>) {
    if let Some(long) = text.strip_prefix("--") {
        let (name, inline) = match long.split_once('=') {
            Some((name, value)) => (name, Some(Word::literal(value))),
            None => (long, None),
        };
        let value = match inline {
            Some(v) => Some(v),
            None if w.long.contains(&name) => words.next().cloned(),
            None => None,
        };
        return (format!("--{name}"), value);
    }
    // `arch -arch NAME`: a long option with one dash.
    if w.long.contains(&text.trim_start_matches('-')) {
        return (
            format!("--{}", text.trim_start_matches('-')),
            words.next().cloned(),
        );
    }
    // `-qc CODE`, `-n5`: the first letter that takes a value ends the group.
    let letters: Vec<char> = text.chars().skip(1).collect();
    for (k, c) in letters.iter().enumerate() {
        let option = format!("-{c}");
        let takes = w.short.contains(*c) || w.code.contains(&option.as_str());
        let stops = w.none.contains(&option.as_str());
        if takes {
            let rest: String = letters.get(k + 1..).unwrap_or_default().iter().collect();
            let value = match rest.is_empty() {
                true => words.next().cloned(),
                false => Some(Word::literal(rest)),
            };
            return (option, value);
        }
        if stops || w.code.contains(&option.as_str()) {
            return (option, None);
        }
    }
    // `arch -arm64`: a single-dash word taken as a plain flag.
    (text.to_owned(), None)
}
