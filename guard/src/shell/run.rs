//! What a simple command runs besides itself: code (`sh -c`, `eval`,
//! `trap`, `mapfile -C`, a function's body, a script on stdin, a builtin
//! loaded by `enable -f`), the command behind a
//! wrapper (`wrappers`), what `find`, `xargs` and `parallel` feed paths to
//! (`feeds`), and the shell state a builtin changes (`builtins`).
//!
//! Code the guard cannot read in full (an `eval` of an unknown value, a
//! shell fed unknown text) is also an unknown command: any program, any
//! arguments, for the rules to judge as the worst it could be.

use std::rc::Rc;

use super::builtins::option_value;
use super::interp::{SHELLS, program_from_stdin, shell_code};
use super::scope::Scope;
use super::walk::Walker;
use super::{Ctx, Simple, Word, output, parse_into};
use crate::pattern::{self, UNKNOWN};

/// Wrapping levels followed for one command (`sudo env nice rm`).
pub(super) const MAX_HOPS: usize = 8;
/// Function calls inside function calls followed.
const MAX_CALLS: usize = 8;

impl Walker<'_, '_> {
    /// Adds `simple` and whatever it runs. `shell` is the shell it runs in
    /// (a builtin changes it); `env` what the command itself sees
    /// (`X=1 cmd`, its redirections and stdin).
    pub(super) fn emit(&mut self, simple: Simple, shell: &mut Scope, env: &Scope, hops: usize) {
        self.push(simple.clone());
        self.cx.output = output::of(&simple);
        if hops >= MAX_HOPS || !self.cx.budget.ok() {
            return;
        }
        let name = match self.cx.fold {
            true => simple.name.to_lowercase(),
            false => simple.name.clone(),
        };
        if !pattern::is_literal(&name) {
            self.unknown_program(&simple, shell, env, hops);
            return;
        }
        if let Some(func) = shell.func(&name) {
            self.call(&func.body, &func.called, &simple, shell);
            return;
        }
        match name.as_str() {
            "cd" | "pushd" | "popd" | "set" | "shift" | "read" | "hash" | "printf" | "let"
            | "getopts" => self.builtin(&name, &simple, shell),
            "mapfile" | "readarray" => {
                self.builtin(&name, &simple, shell);
                // `-C CALLBACK` is evaluated with the line's index and the
                // line (quoted) appended: code, like `eval`'s.
                if let Some(callback) = option_value(&simple.args, 'C', "dnOscCu") {
                    let code = Word {
                        text: format!("{} 0 \"$HOOKGATE_MAPFILE_LINE\"", callback.text),
                        ..callback
                    };
                    self.code(&code, shell, env.stdin.clone());
                }
            }
            // `enable -f FILE NAME` loads a builtin from a shared object:
            // code the line does not show.
            "enable" if option_value(&simple.args, 'f', "f").is_some() => {
                self.unknown_command(Vec::new(), env);
            }
            "eval" => {
                // bash's `eval` takes one `--` ending its (no) options.
                let args = match simple.args.split_first() {
                    Some((first, rest)) if first.text == "--" => rest,
                    _ => &simple.args[..],
                };
                let code = joined(args);
                self.code(&code, shell, env.stdin.clone());
            }
            "trap" => {
                let mut args = simple.args.iter().skip_while(|a| a.text == "--");
                if let Some(code) = args.next().filter(|a| !a.text.starts_with('-')) {
                    let mut later = shell.child();
                    self.code(code, &mut later, Vec::new());
                }
            }
            name if SHELLS.contains(&name) => self.shell(&simple, env),
            "at" | "batch" => self.stdin_script(&simple, env),
            "find" => self.find(&simple, shell, env, hops),
            "xargs" => self.xargs(&simple, shell, env, hops),
            "parallel" => self.parallel(&simple, shell, env, hops),
            _ => self.wrapper(&name, simple, shell, env, hops),
        }
    }

    /// Code given as a word (`eval`, `sh -c`, `trap`): parsed and walked in
    /// `scope`; code with an unknown part is also an unknown command.
    pub(super) fn code(&mut self, code: &Word, scope: &mut Scope, stdin: Vec<String>) {
        let saved = std::mem::replace(&mut scope.stdin, stdin);
        if !code.known() || code.fields {
            self.unknown_command(code.subs.clone(), scope);
        }
        let text = code.text.clone();
        parse_into(&text, scope, self.depth + 1, self.cx);
        scope.stdin = saved;
    }

    /// Any program with any arguments, fed by `subs`.
    pub(super) fn unknown_command(&mut self, subs: Vec<String>, scope: &Scope) {
        let mut arg = Word::unknown(subs.clone());
        arg.fields = true;
        self.push(Simple {
            name: UNKNOWN.to_string(),
            args: vec![arg],
            stdin: scope.stdin.iter().cloned().chain(subs).collect(),
            cwd: scope.cwd.clone(),
            ..Simple::default()
        });
    }

    /// `sh -c CODE [ARG0 ARGS]`, or a shell reading its script from stdin.
    fn shell(&mut self, simple: &Simple, env: &Scope) {
        let mut child = env.child();
        match shell_code(&simple.args) {
            Some((code, rest)) => {
                let mut rest = rest.iter().cloned();
                let _arg0 = rest.next();
                child.positional = Some(Rc::new(rest.collect()));
                let code = code.clone();
                self.code(&code, &mut child, simple.stdin.clone());
            }
            None if program_from_stdin(simple) => self.stdin_script(simple, env),
            // A script file: what it does is not on the line.
            None => {}
        }
    }

    /// A script read from stdin (`echo CODE | sh`, `sh <<EOF`, `at now
    /// <<< CODE`), when the line says what it is.
    fn stdin_script(&mut self, simple: &Simple, env: &Scope) {
        let Some(data) = &simple.stdin_data else {
            return;
        };
        let mut child = env.child();
        child.stdin_data = None;
        let code = Word {
            text: data.text(),
            subs: Vec::new(),
            fields: false,
        };
        self.code(&code, &mut child, simple.stdin.clone());
    }

    /// A shell function called with `simple`'s arguments: its body walked
    /// in the caller's shell (a `cd` in it holds after), `$1`... its
    /// arguments.
    fn call(
        &mut self,
        body: &Rc<str>,
        called: &std::cell::Cell<bool>,
        simple: &Simple,
        shell: &mut Scope,
    ) {
        called.set(true);
        if self.cx.calls >= MAX_CALLS {
            self.cx
                .budget
                .fail("shell functions call each other too deeply to check");
            return;
        }
        let saved = shell.positional.replace(Rc::new(simple.args.clone()));
        let stdin = std::mem::replace(&mut shell.stdin, simple.stdin.clone());
        self.cx.calls += 1;
        parse_into(body, shell, self.depth + 1, self.cx);
        self.cx.calls -= 1;
        shell.positional = saved;
        shell.stdin = stdin;
    }

    /// `$CMD args`: the program is unknown, so it could be anything; and
    /// if its first argument names a program, it may be a wrapper running
    /// it (`$SUDO rm -rf /`): that command is added as one that may run.
    fn unknown_program(&mut self, simple: &Simple, shell: &mut Scope, env: &Scope, hops: usize) {
        let Some((first, rest)) = simple.args.split_first() else {
            return;
        };
        if !pattern::is_literal(&first.text) || first.text.starts_with('-') {
            return;
        }
        let inner = Simple {
            name: super::walk::command_name(&first.text),
            args: rest.to_vec(),
            maybe: true,
            ..simple.clone()
        };
        let mut sandbox = shell.child();
        self.emit(inner, &mut sandbox, env, hops + 1);
    }
}

/// The words of an `eval`, joined by spaces, their feeds kept.
pub(super) fn joined(args: &[Word]) -> Word {
    Word {
        text: args
            .iter()
            .map(|a| a.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        subs: args.iter().flat_map(|a| a.subs.iter().cloned()).collect(),
        fields: args.iter().any(|a| a.fields),
    }
}

/// Functions the line defines but never calls may still run (a `trap`, an
/// `export -f` for a child shell): their bodies are walked once, with
/// unknown arguments.
pub(super) fn uncalled_functions(cx: &mut Ctx<'_>, scope: &Scope) {
    let mut i = 0;
    while let Some(func) = cx.functions.get(i).cloned() {
        i += 1;
        if func.called.replace(true) || !cx.budget.ok() {
            continue;
        }
        let mut inner = scope.child();
        inner.positional = None;
        parse_into(&func.body, &mut inner, 1, cx);
    }
}
