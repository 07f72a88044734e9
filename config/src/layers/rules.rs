//! A guard's `[[subscriber.rules]]` across layers: an upper layer's rule
//! with a lower rule's id replaces it (`enabled = false`: removes it), one
//! the lower guard has word for word is the same rule, any other is added.
//! A lower rule marked `locked = true` is never replaced or removed, and
//! when its guard goes away or is refiltered it lives on in a guard of its
//! own, `<name>.locked`, with the lower guard's filter and priority.

use super::{Entry, Layer, Provenance, Refusal};
use crate::rule_id::{content_key, in_earlier_default, rule_id, superseded_by};

/// What merging a layer's rules could not do.
#[derive(Debug, Default)]
pub(super) struct Outcome {
    pub(super) refused: Vec<Refusal>,
    /// Ids of `enabled = false` entries with no such rule below.
    pub(super) not_found: Vec<String>,
}

fn rules(table: &toml::Table) -> &[toml::Value] {
    table
        .get("rules")
        .and_then(toml::Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Edits `table`'s rules (making the list if there is none).
fn edit_rules<T>(table: &mut toml::Table, edit: impl FnOnce(&mut Vec<toml::Value>) -> T) -> T {
    let mut list = match table.remove("rules") {
        Some(toml::Value::Array(list)) => list,
        _ => Vec::new(),
    };
    let out = edit(&mut list);
    table.insert("rules".to_owned(), toml::Value::Array(list));
    out
}

fn as_table(rule: &toml::Value) -> Option<&toml::Table> {
    rule.as_table()
}

fn is_locked(rule: &toml::Value) -> bool {
    rule.get("locked").and_then(toml::Value::as_bool) == Some(true)
}

fn disables(rule: &toml::Table) -> bool {
    rule.get("enabled").and_then(toml::Value::as_bool) == Some(false)
}

/// How many rules `table` has.
pub(super) fn count(table: &toml::Table) -> usize {
    rules(table).len()
}

/// `table` with no `enabled` key left in its rules (only `false` means
/// something, and only while merging).
pub(super) fn without_switches(mut table: toml::Table) -> toml::Table {
    if table.contains_key("rules") {
        edit_rules(&mut table, |rules| {
            for rule in rules.iter_mut().filter_map(toml::Value::as_table_mut) {
                rule.remove("enabled");
            }
        });
    }
    table
}

/// Whether `rule` (written without an id) is `lower` word for word, or
/// an earlier version of the default rule `lower` is.
fn same_rule(lower: &toml::Table, rule: &toml::Table) -> bool {
    content_key(lower) == content_key(rule)
        || superseded_by(rule)
            .is_some_and(|id| lower.get("id").and_then(toml::Value::as_str) == Some(id))
}

/// Merges `written`'s rules (an upper layer's table) into `entry`.
pub(super) fn merge(entry: &mut Entry, written: &toml::Table, layer: Layer) -> Outcome {
    let mut outcome = Outcome::default();
    for rule in rules(written).iter().filter_map(as_table) {
        let id = rule_id(rule);
        let explicit = rule.contains_key("id");
        let lower = rules(&entry.table).iter().position(|r| {
            as_table(r).is_some_and(|r| {
                if explicit {
                    rule_id(r) == id
                } else {
                    same_rule(r, rule)
                }
            })
        });
        match lower {
            None if disables(rule) => outcome.not_found.push(id),
            None => {
                let mut rule = rule.clone();
                rule.remove("enabled");
                edit_rules(&mut entry.table, |rules| {
                    rules.push(toml::Value::Table(rule))
                });
                entry.provenance.rules.push(layer);
            }
            // Word for word the same rule: nothing to add.
            Some(_) if !explicit => {}
            Some(i) if rules(&entry.table).get(i).is_some_and(is_locked) => {
                outcome.refused.push(Refusal {
                    what: format!("{} rule {id}", entry.name),
                    attempt: if disables(rule) { "disable" } else { "replace" },
                })
            }
            Some(i) if disables(rule) => {
                edit_rules(&mut entry.table, |rules| rules.remove(i));
                if i < entry.provenance.rules.len() {
                    entry.provenance.rules.remove(i);
                }
            }
            Some(i) => {
                let mut rule = rule.clone();
                rule.remove("enabled");
                edit_rules(&mut entry.table, |rules| {
                    if let Some(slot) = rules.get_mut(i) {
                        *slot = toml::Value::Table(rule);
                    }
                });
                if let Some(slot) = entry.provenance.rules.get_mut(i) {
                    *slot = layer;
                }
            }
        }
    }
    outcome
}

/// The ids of `entry`'s rules that `written` (a table that reads as a
/// whole definition) neither names nor repeats.
pub(super) fn left_out(entry: &Entry, written: &toml::Table) -> Vec<String> {
    let theirs: Vec<&toml::Table> = rules(written).iter().filter_map(as_table).collect();
    // An old copy of the default: the rules added to it since are not
    // left out by the copy.
    let old_copy = theirs.iter().any(|rule| superseded_by(rule).is_some());
    rules(&entry.table)
        .iter()
        .filter_map(as_table)
        .filter(|lower| !old_copy || in_earlier_default(&rule_id(lower)))
        .filter(|lower| {
            !theirs
                .iter()
                .any(|rule| rule_id(rule) == rule_id(lower) || same_rule(lower, rule))
        })
        .map(rule_id)
        .collect()
}

/// Whether `entry` has locked rules.
pub(super) fn has_locked(entry: &Entry) -> bool {
    rules(&entry.table).iter().any(is_locked)
}

/// Removes `entry`'s locked rules (they moved to `<name>.locked`).
pub(super) fn drop_locked(entry: &mut Entry) {
    let keep: Vec<bool> = rules(&entry.table).iter().map(|r| !is_locked(r)).collect();
    let mut kept = keep.iter();
    edit_rules(&mut entry.table, |rules| {
        rules.retain(|_| kept.next().copied().unwrap_or(true));
    });
    let mut kept = keep.iter();
    entry
        .provenance
        .rules
        .retain(|_| kept.next().copied().unwrap_or(true));
}

/// `entry`'s locked rules as their own locked guard `<name>.locked`, with
/// its filter and priority; `None` when it has none.
pub(super) fn locked_part(entry: &Entry) -> Option<Entry> {
    let locked: Vec<toml::Value> = rules(&entry.table)
        .iter()
        .filter(|r| is_locked(r))
        .cloned()
        .collect();
    if locked.is_empty() {
        return None;
    }
    let name = format!("{}.locked", entry.name);
    let mut table = toml::Table::new();
    table.insert("name".into(), toml::Value::String(name.clone()));
    table.insert("builtin".into(), toml::Value::String("guard".into()));
    for key in ["priority", "agents", "events", "tools"] {
        if let Some(value) = entry.table.get(key) {
            table.insert(key.into(), value.clone());
        }
    }
    table.insert("locked".into(), toml::Value::Boolean(true));
    let count = locked.len();
    table.insert("rules".into(), toml::Value::Array(locked));
    Some(Entry {
        name,
        provenance: Provenance {
            keys: table.keys().map(|k| (k.clone(), Layer::System)).collect(),
            rules: vec![Layer::System; count],
        },
        table,
        defined_by: Layer::System,
        place: entry.place.clone(),
    })
}

/// Adds `more`'s rules to `entry` (both `<name>.locked` guards).
pub(super) fn append(entry: &mut Entry, more: Entry) {
    let added = rules(&more.table).to_vec();
    entry.provenance.rules.extend(more.provenance.rules);
    edit_rules(&mut entry.table, |rules| rules.extend(added));
}
