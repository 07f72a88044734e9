//! A rule's regex as lazy DFAs: split into its alternatives (each a
//! small DFA; their union can be a very large one), built from the regex
//! over bytes, explored by `search` (which judges words with them).

use std::collections::HashSet;

use regex_automata::MatchKind;
use regex_automata::hybrid::dfa::DFA;
use regex_automata::nfa::thompson;
use regex_automata::util::syntax;
use regex_syntax::hir::{Hir, HirKind};

/// The memory one lazy DFA may use for the states a search builds; a
/// search that would need more judges the word Maybe (more asks, never
/// fewer).
const CACHE_CAPACITY: usize = 1 << 20;
/// A regex is searched as at most this many alternatives (each a small
/// DFA; their union can be a very large one).
const MAX_PARTS: usize = 256;

#[derive(Debug)]
pub(super) struct Automata {
    /// The regex's alternatives (`(^|/)(a|b)$` is `^a$`, `/a$`, `^b$`,
    /// `/b$`), each a lazy DFA: what the regex matches, one of them does.
    pub(super) parts: Vec<Part>,
    pub(super) unless: Option<DFA>,
}

#[derive(Debug)]
pub(super) struct Part {
    pub(super) regex: DFA,
    /// One byte per distinct pair of byte classes (this part's and the
    /// `unless`'s), by what may be there: what a glob fills in holds no
    /// `/`, no `\\` (Windows' separator to the rules) and no `.` (see the
    /// module docs of `pattern`).
    pub(super) any: Vec<u8>,
    pub(super) in_path: Vec<u8>,
    pub(super) in_name: Vec<u8>,
    pub(super) continuation: Vec<u8>,
}

/// `pattern` over bytes (ASCII classes and case folding: what it judges
/// is text with markers, where a byte view loses nothing the rules look
/// at), or over Unicode if the pattern needs it.
fn parse(pattern: &str, fold: bool) -> Option<Hir> {
    let bytes = syntax::Config::new()
        .case_insensitive(fold)
        .unicode(false)
        .utf8(false);
    syntax::parse_with(pattern, &bytes)
        .ok()
        .or_else(|| syntax::parse_with(pattern, &syntax::Config::new().case_insensitive(fold)).ok())
}

/// The alternatives of `hir`, alternations distributed over
/// concatenations, while there are at most [`MAX_PARTS`]. Branches without
/// an unbounded repetition stay together (a union of literals is a small
/// DFA); each branch with one (`x/.*`, `[^/]*key`) is a part of its own,
/// as their union is what grows large.
fn alternatives(hir: &Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Capture(capture) => alternatives(&capture.sub),
        HirKind::Alternation(subs) => {
            let (simple, unbounded): (Vec<&Hir>, Vec<&Hir>) =
                subs.iter().partition(|h| !unbounded_repetition(h));
            let mut all: Vec<Hir> = unbounded.into_iter().flat_map(alternatives).collect();
            match simple.as_slice() {
                [] => {}
                [one] => all.push((*one).clone()),
                many => all.push(Hir::alternation(
                    many.iter().map(|h| (*h).clone()).collect(),
                )),
            }
            match all.len() <= MAX_PARTS {
                true => all,
                false => vec![hir.clone()],
            }
        }
        HirKind::Concat(subs) => {
            let mut products: Vec<Vec<Hir>> = vec![Vec::new()];
            for sub in subs {
                let choices = alternatives(sub);
                if products.len() * choices.len() > MAX_PARTS {
                    return vec![hir.clone()];
                }
                products = products
                    .iter()
                    .flat_map(|p| {
                        choices.iter().map(move |c| {
                            let mut next = p.clone();
                            next.push(c.clone());
                            next
                        })
                    })
                    .collect();
            }
            products.into_iter().map(Hir::concat).collect()
        }
        _ => vec![hir.clone()],
    }
}

/// Does `hir` repeat something without bound (`*`, `+`, `{n,}`)?
fn unbounded_repetition(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Repetition(rep) => rep.max.is_none() || unbounded_repetition(&rep.sub),
        HirKind::Capture(capture) => unbounded_repetition(&capture.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(unbounded_repetition),
        _ => false,
    }
}

fn lazy(hir: &Hir) -> Option<DFA> {
    let nfa = thompson::Compiler::new()
        .configure(thompson::Config::new().utf8(false))
        .build_from_hir(hir)
        .ok()?;
    DFA::builder()
        .configure(
            DFA::config()
                .match_kind(MatchKind::All)
                .cache_capacity(CACHE_CAPACITY)
                .minimum_cache_clear_count(Some(0)),
        )
        .build_from_nfa(nfa)
        .ok()
}

impl Automata {
    pub(super) fn build(pattern: &str, unless: Option<&str>, fold: bool) -> Option<Automata> {
        let unless = match unless {
            Some(u) => Some(lazy(&parse(u, fold)?)?),
            None => None,
        };
        let mut parts = Vec::new();
        for hir in alternatives(&parse(pattern, fold)?) {
            let regex = lazy(&hir)?;
            let classes = |byte: u8| {
                let a = regex.byte_classes().get(byte);
                let b = unless.as_ref().map_or(0, |u| u.byte_classes().get(byte));
                (a, b)
            };
            let reps = |wanted: &dyn Fn(u8) -> bool| {
                let mut seen = HashSet::new();
                (0..=255u8)
                    .filter(|&b| wanted(b) && seen.insert(classes(b)))
                    .collect::<Vec<u8>>()
            };
            parts.push(Part {
                any: reps(&|_| true),
                in_path: reps(&|b| !matches!(b, b'\\' | b'.')),
                in_name: reps(&|b| !matches!(b, b'/' | b'\\' | b'.')),
                continuation: reps(&|b| (0x80..0xC0).contains(&b)),
                regex,
            });
        }
        Some(Automata { parts, unless })
    }
}
