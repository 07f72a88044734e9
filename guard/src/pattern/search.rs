//! One search: a word's spellings followed through a part of a rule's
//! regex and its `unless` at once, as pairs of lazy DFA states.
//!
//! Every step is charged to the call's budget, and so is the lazy DFAs'
//! own work: a cache's memory grows with each state it builds (the
//! transition row, the NFA states the state stands for) and with its
//! creation (sets sized by the NFA), and that growth is charged, at
//! [`BYTES_PER_UNIT`], after every step. A budget that runs out stops the
//! search within a step of the work, however many states a crafted glob
//! would have the DFAs build (issue #33: a first attempt on a small budget
//! must not stall the thread it runs on).

use std::collections::HashSet;

use regex_automata::Anchored;
use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::start;

use super::Item;
use super::automata::{Automata, Part};
use crate::budget::Budget;

/// Where one regex is in a spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Slot {
    At(LazyStateID),
    Matched,
    /// Cannot match any more (or there is no such regex).
    Never,
}

type Pair = (Slot, Slot);

/// A set of pairs hashed cheaply (the search's hot path; its keys are
/// small and not chosen by anyone).
type Pairs = HashSet<Pair, std::hash::BuildHasherDefault<Fnv>>;

/// FNV-1a, for [`Pairs`].
#[derive(Debug, Clone, Copy)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The two absorbing outcomes: a hit whatever follows, a miss whatever
/// follows.
const HIT: Pair = (Slot::Matched, Slot::Never);
const MISS: Pair = (Slot::Never, Slot::Never);

/// Bytes of lazy DFA cache growth charged as one unit of work: with it,
/// a full check of a line whose globs have the DFAs build thousands of
/// states takes 50 to 90 ns per unit (`inline_cost` of `hookgate-config`,
/// release, shared 2-core machine), about what the parser's and the
/// walk's units take on ordinary lines, so a unit is roughly one time.
pub(super) const BYTES_PER_UNIT: usize = 4;

/// One search's caches (a lazy DFA builds its states in them), and how
/// much of their memory was charged already.
pub(super) struct Caches {
    regex: Cache,
    unless: Option<Cache>,
    charged: usize,
}

impl Caches {
    /// Fresh caches for `regex` and `unless`, not charged yet.
    pub(super) fn new(regex: &DFA, unless: Option<&DFA>) -> Caches {
        Caches {
            regex: regex.create_cache(),
            unless: unless.map(DFA::create_cache),
            charged: 0,
        }
    }

    /// Charges what the caches grew by since the last charge (reading
    /// their size is a few additions); `false` once the budget ran out.
    fn charge(&mut self, budget: &mut Budget) -> bool {
        let now = self.regex.memory_usage() + self.unless.as_ref().map_or(0, Cache::memory_usage);
        if now <= self.charged {
            return true;
        }
        let grown = now - self.charged;
        self.charged = now;
        budget.charge(grown.div_ceil(BYTES_PER_UNIT))
    }

    /// Whether a cache was cleared (which made its state ids stale).
    pub(super) fn cleared(&self) -> bool {
        self.regex.clear_count() > 0 || self.unless.as_ref().is_some_and(|c| c.clear_count() > 0)
    }
}

/// One part and the `unless`, stepped together.
pub(super) struct Search<'a> {
    pub(super) part: &'a Part,
    pub(super) unless: Option<&'a DFA>,
}

impl Search<'_> {
    pub(super) fn run(
        &self,
        items: &[Item],
        caches: &mut Caches,
        budget: &mut Budget,
    ) -> Option<(bool, bool)> {
        let unless = match (self.unless, caches.unless.as_mut()) {
            (Some(dfa), Some(cache)) => start(dfa, cache)?,
            _ => Slot::Never,
        };
        let first = (start(&self.part.regex, &mut caches.regex)?, unless);
        if !caches.charge(budget) {
            return None;
        }
        let part = self.part;
        let mut pairs: Pairs = Pairs::default();
        pairs.insert(normal(first));
        for item in items {
            pairs = match item {
                Item::Byte(b) => self.step_all(&pairs, &[*b], caches, budget)?,
                Item::Any => self.closure(pairs, &part.any, caches, budget)?,
                Item::AnyPath => {
                    // At most three characters (one short directory): a
                    // path below is not taken to spell a rule's own names.
                    let mut all = pairs.clone();
                    let mut frontier = pairs;
                    for _ in 0..3 {
                        frontier = self.step_all(&frontier, &part.in_path, caches, budget)?;
                        all.extend(frontier.iter().copied());
                    }
                    all
                }
                Item::Star { bare: false, .. } => {
                    let mut more = self.closure(pairs.clone(), &part.in_name, caches, budget)?;
                    more.extend(pairs);
                    more
                }
                Item::Star { bare: true, .. } => {
                    // At most three characters: a bare `*` is not taken to
                    // spell a whole secret's name.
                    let mut all = pairs.clone();
                    let mut frontier = pairs;
                    for _ in 0..3 {
                        frontier = self.step_all(&frontier, &part.in_name, caches, budget)?;
                        all.extend(frontier.iter().copied());
                    }
                    all
                }
                Item::One { .. } | Item::Class { bytes: None, .. } => {
                    let started = self.step_all(&pairs, &part.in_name, caches, budget)?;
                    self.closure(started, &part.continuation, caches, budget)?
                }
                Item::Class {
                    bytes: Some(bytes),
                    first,
                } => {
                    let allowed: Vec<u8> = bytes
                        .iter()
                        .copied()
                        .filter(|&b| !(*first && b == b'.'))
                        .collect();
                    self.step_all(&pairs, &allowed, caches, budget)?
                }
            };
            if !budget.charge(pairs.len()) {
                return None;
            }
            if pairs.is_empty() {
                // A class with no member: no spelling at all.
                return Some((false, false));
            }
        }
        let mut ends = Pairs::default();
        for pair in pairs {
            ends.insert(self.end(pair, caches)?);
            if !caches.charge(budget) {
                return None;
            }
        }
        Some((ends.contains(&HIT), ends.iter().any(|p| *p != HIT)))
    }

    /// Every pair of `pairs` moved along each of `bytes`.
    fn step_all(
        &self,
        pairs: &Pairs,
        bytes: &[u8],
        caches: &mut Caches,
        budget: &mut Budget,
    ) -> Option<Pairs> {
        let mut out = Pairs::with_capacity_and_hasher(pairs.len(), Default::default());
        for &pair in pairs {
            if !budget.charge(bytes.len()) {
                return None;
            }
            for &b in bytes {
                out.insert(self.step(pair, b, caches, budget)?);
            }
        }
        Some(out)
    }

    /// `pairs` and every pair reachable from them along `bytes`.
    fn closure(
        &self,
        pairs: Pairs,
        bytes: &[u8],
        caches: &mut Caches,
        budget: &mut Budget,
    ) -> Option<Pairs> {
        let mut seen = pairs.clone();
        let mut todo: Vec<Pair> = pairs.into_iter().collect();
        while let Some(pair) = todo.pop() {
            if !budget.charge(bytes.len()) {
                return None;
            }
            for &b in bytes {
                let next = self.step(pair, b, caches, budget)?;
                if seen.insert(next) {
                    todo.push(next);
                }
            }
        }
        Some(seen)
    }

    /// `(a, b)` moved along `byte`, the states this built charged; `None`
    /// when a cache gave up or the budget ran out.
    fn step(
        &self,
        (a, b): Pair,
        byte: u8,
        caches: &mut Caches,
        budget: &mut Budget,
    ) -> Option<Pair> {
        let move_slot = |dfa: &DFA, cache: &mut Cache, slot: Slot| match slot {
            Slot::At(id) => dfa.next_state(cache, id, byte).ok().map(settle),
            done => Some(done),
        };
        let a = move_slot(&self.part.regex, &mut caches.regex, a)?;
        let b = match (self.unless, caches.unless.as_mut()) {
            (Some(unless), Some(cache)) => move_slot(unless, cache, b)?,
            _ => Slot::Never,
        };
        caches.charge(budget).then_some(normal((a, b)))
    }

    /// The end of the text: each regex matched or not.
    fn end(&self, (a, b): Pair, caches: &mut Caches) -> Option<Pair> {
        let finish = |dfa: &DFA, cache: &mut Cache, slot: Slot| match slot {
            Slot::At(id) => {
                let end = dfa.next_eoi_state(cache, id).ok()?;
                Some(if end.is_match() {
                    Slot::Matched
                } else {
                    Slot::Never
                })
            }
            done => Some(done),
        };
        let a = finish(&self.part.regex, &mut caches.regex, a)?;
        let b = match (self.unless, caches.unless.as_mut()) {
            (Some(unless), Some(cache)) => finish(unless, cache, b)?,
            _ => Slot::Never,
        };
        Some(normal((a, b)))
    }
}

/// A state as a slot: matched (a match state: the regex has matched),
/// never (dead), or where it is. A quit state cannot occur (no quit bytes
/// are configured); it counts as matched, the cautious reading.
fn settle(id: LazyStateID) -> Slot {
    if id.is_match() || id.is_quit() {
        Slot::Matched
    } else if id.is_dead() {
        Slot::Never
    } else {
        Slot::At(id)
    }
}

/// Pairs whose outcome is settled, as one of the two absorbing pairs.
fn normal(pair: Pair) -> Pair {
    match pair {
        (Slot::Never, _) | (_, Slot::Matched) => MISS,
        (Slot::Matched, Slot::Never) => HIT,
        other => other,
    }
}

/// Where `dfa` starts an unanchored search.
fn start(dfa: &DFA, cache: &mut Cache) -> Option<Slot> {
    let id = dfa
        .start_state(cache, &start::Config::new().anchored(Anchored::No))
        .ok()?;
    Some(settle(id))
}

/// Words judged by a rule's automata: a search per part.
impl Automata {
    /// Per part: whether some spelling is a hit, and whether every one
    /// is (one part hit by every spelling is enough for the regex;
    /// spellings spread over several parts are not worked out: Maybe,
    /// never Yes); `None` when the budget ran out or a cache filled.
    pub(super) fn judge(&self, items: &[Item], budget: &mut Budget) -> Option<Vec<(bool, bool)>> {
        self.parts
            .iter()
            .map(|part| {
                let (some, miss) = self.explore(part, items, budget)?;
                Some((some, some && !miss))
            })
            .collect()
    }

    /// Whether some spelling of `items` is a hit of `part`, and whether
    /// some is a miss; `None` when the budget ran out or a cache filled.
    fn explore(&self, part: &Part, items: &[Item], budget: &mut Budget) -> Option<(bool, bool)> {
        // A call already stopped builds no caches (their creation is work
        // too, charged only once done).
        if !budget.ok() {
            return None;
        }
        let mut caches = Caches::new(&part.regex, self.unless.as_ref());
        let search = Search {
            part,
            unless: self.unless.as_ref(),
        };
        let found = search.run(items, &mut caches, budget);
        // A cache cleared in the middle of a search made its state ids
        // stale: that search says nothing.
        found.filter(|_| !caches.cleared())
    }
}

#[cfg(test)]
mod tests;
