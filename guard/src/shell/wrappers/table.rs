//! The wrappers' table: one row per command that runs another (`sudo`,
//! `timeout`, `flock`, `chroot`, ...), saying which of its options take a
//! value, how many operands come before the command, which options carry
//! shell code or a working directory, and after which options nothing
//! runs. Only data and the lookup; the unwrapping is `wrappers`'.

/// One wrapper's options.
pub(super) struct Wrap {
    pub(super) names: &'static [&'static str],
    /// Short options that take a value.
    pub(super) short: &'static str,
    /// Long options that take a value (`--x v` or `--x=v`).
    pub(super) long: &'static [&'static str],
    /// Operands before the command (a duration, a lock file, a new root).
    pub(super) lead: usize,
    /// Options whose value is shell code.
    pub(super) code: &'static [&'static str],
    /// Options after which no command runs (`command -v`, `taskset -p`).
    pub(super) none: &'static [&'static str],
    /// Options whose value is the command's working directory.
    pub(super) chdir: &'static [&'static str],
    /// Runs the command in this same shell (`command cd`).
    pub(super) same_shell: bool,
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

pub(super) static WRAPPERS: &[Wrap] = &[
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
