//! Commands that hand paths or lines to another command: `find ... -exec
//! CMD {} +` and `-delete`, `xargs CMD`, `parallel CMD ::: ARGS`.
//!
//! What they hand on is what the line says when it says it (`echo / |
//! xargs rm -rf`: `/`; `find ~ -exec ...`: `~` and every path below it),
//! otherwise one unknown word fed by whatever fed them.

use super::output::{Output, find_items};
use super::scope::Scope;
use super::walk::{Walker, command_name};
use super::{Simple, Word};
use crate::pattern;

/// Most values a feed's command is repeated for (`-I`, `-exec ... ;`);
/// past it the value is unknown.
const MAX_ITEMS: usize = 32;

impl Walker<'_, '_> {
    /// `find [-H|-L|-P] [-D x] [-Olevel] START... EXPRESSION`.
    pub(super) fn find(&mut self, simple: &Simple, shell: &mut Scope, env: &Scope, hops: usize) {
        let args = &simple.args;
        let mut i = 0;
        while let Some(arg) = args.get(i) {
            match arg.text.as_str() {
                "-H" | "-L" | "-P" => i += 1,
                "-D" => i += 2,
                o if o.starts_with("-O") => i += 1,
                _ => break,
            }
        }
        let mut starts: Vec<String> = args
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|a| !a.text.starts_with(['-', '(', '!', ')']))
            .map(|a| a.text.clone())
            .collect();
        let expression = args.get(i + starts.len()..).unwrap_or_default();
        if starts.is_empty() {
            starts.push(".".to_owned());
        }
        let (mut with_start, mut below) = (true, true);
        let mut names = Vec::new();
        let mut negated = false;
        let mut words = expression.iter();
        while let Some(word) = words.next() {
            let text = word.text.as_str();
            match text {
                "!" | "-not" => {
                    negated = true;
                    continue;
                }
                "-name" | "-iname" => {
                    if let Some(value) = words.next()
                        && !negated
                    {
                        names.push(pattern::glob(&value.text));
                    }
                }
                "-mindepth" => with_start &= words.next().is_some_and(|n| n.text == "0"),
                "-maxdepth" => below &= words.next().is_none_or(|n| n.text != "0"),
                _ => {}
            }
            negated = false;
        }
        with_start &= names.is_empty();
        let items: Vec<String> = starts
            .iter()
            .flat_map(|s| find_items(s, &names, with_start, below))
            .collect();
        let mut acted = false;
        let mut words = expression.iter();
        while let Some(word) = words.next() {
            match word.text.as_str() {
                // It may delete anywhere under its starts, whatever the
                // tests: `rm -rf START`.
                "-delete" => {
                    acted = true;
                    let mut args = vec![Word::literal("-r"), Word::literal("-f")];
                    args.extend(starts.iter().map(|s| Word::literal(s.clone())));
                    self.feed(simple, "rm", args, shell, env, hops);
                }
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    acted = true;
                    let mut command: Vec<Word> = Vec::new();
                    for word in words.by_ref() {
                        if matches!(word.text.as_str(), ";" | "+") {
                            break;
                        }
                        command.push(word.clone());
                    }
                    let command = replace(&command, "{}", &items);
                    if let Some((first, rest)) = command.split_first() {
                        self.feed(simple, &first.text, rest.to_vec(), shell, env, hops);
                    }
                }
                _ => {}
            }
        }
        if !acted {
            self.cx.output = Some(Output::Items(items));
        }
    }

    /// `xargs [options] [CMD [ARGS]]`: CMD with the words of stdin.
    pub(super) fn xargs(&mut self, simple: &Simple, shell: &mut Scope, env: &Scope, hops: usize) {
        let mut replace_with: Option<String> = None;
        let mut delim = None;
        let mut from_file = false;
        let mut words = simple.args.iter().peekable();
        while let Some(word) = words.peek() {
            let text = word.text.as_str();
            if text == "--" {
                words.next();
                break;
            }
            if !text.starts_with('-') || text == "-" {
                break;
            }
            words.next();
            let (option, inline) = match text.split_once('=') {
                Some((o, v)) if o.starts_with("--") => (o, Some(v.to_owned())),
                _ => (text, None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| words.next().map(|w| w.text.clone()))
            };
            match option {
                "-0" | "--null" => delim = Some('\0'),
                "-d" | "--delimiter" => delim = value().and_then(|d| d.chars().next()),
                "-a" | "--arg-file" => {
                    from_file = true;
                    value();
                }
                "-I" => replace_with = value(),
                "--replace" => replace_with = Some(inline.clone().unwrap_or_else(|| "{}".into())),
                "-E" | "-L" | "-n" | "-P" | "-s" | "--eof" | "--max-lines" | "--max-args"
                | "--max-procs" | "--max-chars" | "--process-slot-var" => {
                    value();
                }
                o if o.starts_with("-i") => {
                    let r = o.trim_start_matches("-i");
                    replace_with = Some(if r.is_empty() { "{}".into() } else { r.into() });
                }
                o if o.starts_with("-I") => replace_with = Some(o.trim_start_matches("-I").into()),
                _ => {}
            }
        }
        let mut command: Vec<Word> = words.cloned().collect();
        if command.is_empty() {
            command.push(Word::literal("echo"));
        }
        let items = match (&simple.stdin_data, from_file) {
            (Some(data), false) => data.words(delim),
            _ => Vec::new(),
        };
        let items: Vec<Word> = match items.is_empty() || items.len() > MAX_ITEMS {
            true => vec![Word::unknown(simple.stdin.clone())],
            false => items
                .into_iter()
                .map(|text| Word {
                    text,
                    subs: simple.stdin.clone(),
                    fields: false,
                })
                .collect(),
        };
        self.run_with(
            simple,
            command,
            replace_with.as_deref(),
            &items,
            shell,
            env,
            hops,
        );
    }

    /// `parallel [options] CMD [ARGS] ::: VALUES...` (or values on stdin).
    pub(super) fn parallel(
        &mut self,
        simple: &Simple,
        shell: &mut Scope,
        env: &Scope,
        hops: usize,
    ) {
        let mut words = simple.args.iter().peekable();
        while let Some(word) = words.peek() {
            let text = word.text.as_str();
            if !text.starts_with('-') {
                break;
            }
            words.next();
            if matches!(
                text,
                "-j" | "-a"
                    | "-I"
                    | "-S"
                    | "-d"
                    | "-n"
                    | "-N"
                    | "-L"
                    | "-P"
                    | "--jobs"
                    | "--colsep"
                    | "--delay"
                    | "--timeout"
                    | "--joblog"
                    | "--results"
                    | "--sshlogin"
                    | "--arg-file"
            ) {
                words.next();
            }
        }
        let rest: Vec<Word> = words.cloned().collect();
        let split = rest
            .iter()
            .position(|w| w.text == ":::" || w.text == "::::");
        let (command, values) = match split {
            Some(at) => (
                rest.get(..at).unwrap_or_default().to_vec(),
                rest.get(at..).unwrap_or_default(),
            ),
            None => (rest.clone(), &[][..]),
        };
        let mut items: Vec<Word> = Vec::new();
        let mut from_file = false;
        for word in values {
            match word.text.as_str() {
                ":::" => from_file = false,
                "::::" => from_file = true,
                _ if from_file => items.push(Word::unknown(Vec::new())),
                _ => items.push(word.clone()),
            }
        }
        if split.is_none() {
            items = match &simple.stdin_data {
                Some(data) => data.words(None).into_iter().map(Word::literal).collect(),
                None => vec![Word::unknown(simple.stdin.clone())],
            };
        }
        if items.len() > MAX_ITEMS {
            items = vec![Word::unknown(simple.stdin.clone())];
        }
        let replace_with = command
            .iter()
            .any(|w| w.text.contains("{}"))
            .then_some("{}");
        self.run_with(simple, command, replace_with, &items, shell, env, hops);
    }

    /// `command` run with `items`: once per item in place of `replace`, or
    /// once with all of them appended.
    #[expect(
        clippy::too_many_arguments,
        reason = "the feed's parts, passed through"
    )]
    fn run_with(
        &mut self,
        simple: &Simple,
        command: Vec<Word>,
        replace_with: Option<&str>,
        items: &[Word],
        shell: &mut Scope,
        env: &Scope,
        hops: usize,
    ) {
        let runs: Vec<Vec<Word>> = match replace_with {
            Some(marker) => items
                .iter()
                .map(|item| {
                    command
                        .iter()
                        .map(|w| match w.text.contains(marker) {
                            true => Word {
                                text: w.text.replace(marker, &item.text),
                                subs: w.subs.iter().chain(&item.subs).cloned().collect(),
                                fields: false,
                            },
                            false => w.clone(),
                        })
                        .collect()
                })
                .collect(),
            None => vec![command.iter().chain(items).cloned().collect()],
        };
        for run in runs {
            if let Some((first, rest)) = run.split_first() {
                let mut fed = simple.clone();
                fed.stdin.clear();
                fed.stdin_data = None;
                self.feed(&fed, &first.text, rest.to_vec(), shell, env, hops);
            }
        }
    }

    /// Emits `name args` run by the feed `simple`.
    fn feed(
        &mut self,
        simple: &Simple,
        name: &str,
        args: Vec<Word>,
        shell: &mut Scope,
        env: &Scope,
        hops: usize,
    ) {
        let inner = Simple {
            name: command_name(name),
            args,
            tree: simple.name == "find",
            ..simple.clone()
        };
        let mut child = shell.child();
        self.emit(inner, &mut child, env, hops + 1);
    }
}

/// `words` with `marker` replaced by each of `items` (a word that is only
/// the marker becomes all of them).
fn replace(words: &[Word], marker: &str, items: &[String]) -> Vec<Word> {
    let mut out = Vec::new();
    for word in words {
        if !word.text.contains(marker) {
            out.push(word.clone());
            continue;
        }
        for item in items.iter().take(MAX_ITEMS) {
            out.push(word.with_text(&word.text.replace(marker, item)));
        }
    }
    out
}
