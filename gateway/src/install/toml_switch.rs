//! A boolean switch in an agent's TOML config that must be on for its
//! hooks to run at all (Codex: `[features] hooks = true` in
//! `~/.codex/config.toml`), edited with `toml_edit` so the user's
//! comments, order and formatting stay as they were.
//!
//! Install turns the switch on (or leaves an on switch alone: a second
//! run changes nothing). Uninstall turns it back to what the backup says
//! it was — the backup's own bytes when nothing else changed — and, with
//! no backup, removes the file only when it is exactly the one install
//! created: a switch that was already on is the user's, not ours.

use std::path::Path;

use toml_edit::{DocumentMut, Item, Table, value};

use super::change::{self, Change};

/// Where the switch lives: `[table] key = true` in the file at `path`
/// (relative to HOME, or to the project for `--scope project`).
#[derive(Debug)]
pub(crate) struct TomlSwitch {
    pub(crate) path: &'static str,
    pub(crate) table: &'static str,
    pub(crate) key: &'static str,
}

/// Why a TOML config cannot be edited.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TomlError {
    #[error("not valid TOML: {0}")]
    Syntax(#[from] toml_edit::TomlError),
    #[error("`{0}` is not a table")]
    NotATable(&'static str),
}

impl TomlSwitch {
    /// The file's text with the switch on (`original` itself when it
    /// already is).
    pub(crate) fn install(&self, original: Option<&str>) -> Result<String, TomlError> {
        let text = original.unwrap_or("");
        let mut doc: DocumentMut = text.parse()?;
        if self.is_on(&doc) {
            return Ok(text.to_owned());
        }
        let table = doc
            .entry(self.table)
            .or_insert_with(|| Item::Table(Table::new()))
            .as_table_like_mut()
            .ok_or(TomlError::NotATable(self.table))?;
        table.insert(self.key, value(true));
        Ok(doc.to_string())
    }

    /// The text uninstall leaves (`None`: remove the file), or no change
    /// at all (`Ok(None)` from the outer option) when the switch is not
    /// ours to turn off.
    pub(crate) fn uninstall(
        &self,
        current: &str,
        backup: Option<&str>,
    ) -> Result<Option<Option<String>>, TomlError> {
        let mut doc: DocumentMut = current.parse()?;
        let Some(original) = backup else {
            // No backup: install created the file, or found the switch on.
            let created = self.install(None)?;
            return Ok((current == created).then_some(None));
        };
        let before: DocumentMut = original.parse()?;
        if self.is_on(&before) || !self.is_on(&doc) {
            return Ok(None);
        }
        let had_table = before.get(self.table).is_some();
        if let Some(table) = doc.get_mut(self.table).and_then(Item::as_table_like_mut) {
            match before.get(self.table).and_then(|t| t.get(self.key)) {
                Some(item) => {
                    table.insert(self.key, item.clone());
                }
                None => {
                    table.remove(self.key);
                }
            }
            if table.is_empty() && !had_table {
                doc.remove(self.table);
            }
        }
        let reverted = doc.to_string();
        Ok(Some(Some(if same_toml(&reverted, original) {
            original.to_owned()
        } else {
            reverted
        })))
    }

    /// The file install writes where there was none.
    pub(crate) fn created(&self) -> String {
        self.install(None).unwrap_or_default()
    }

    /// Whether `doc` has the switch on.
    fn is_on(&self, doc: &DocumentMut) -> bool {
        doc.get(self.table)
            .and_then(|table| table.get(self.key))
            .and_then(Item::as_bool)
            .unwrap_or(false)
    }

    /// The change install makes to the switch's file under `base`.
    pub(crate) fn install_change(&self, base: &Path) -> anyhow::Result<Change> {
        let path = change::resolve(&base.join(self.path));
        let before = change::read(&path)?;
        let after = self.install(before.as_deref())?;
        Ok(Change {
            path,
            before,
            after: Some(after),
            executable: false,
        })
    }

    /// The change uninstall makes, if any: `first` (more of the file that
    /// install wrote, such as Codex's trust of hookgate's hooks) taken out,
    /// then the switch turned back; the backup's bytes when that is all
    /// install had changed.
    pub(crate) fn uninstall_change_with(
        &self,
        base: &Path,
        first: impl Fn(&str) -> anyhow::Result<String>,
    ) -> anyhow::Result<Option<Change>> {
        let path = change::resolve(&base.join(self.path));
        let Some(current) = change::read(&path)? else {
            return Ok(None);
        };
        let backup = change::read(&change::backup_path(&path))?;
        let cleaned = first(&current)?;
        // No backup, and what `first` took out was install's: the rest is
        // the file install created from nothing, however toml_edit laid
        // it out once those entries were gone.
        if backup.is_none() && cleaned != current && same_toml(&cleaned, &self.created()) {
            return Ok(Some(Change {
                path,
                before: Some(current),
                after: None,
                executable: false,
            }));
        }
        let after = match self.uninstall(&cleaned, backup.as_deref())? {
            Some(after) => after,
            None => Some(cleaned),
        };
        let after = match (after, backup) {
            (Some(text), Some(original)) if same_toml(&text, &original) => Some(original),
            (after, _) => after,
        };
        if after.as_deref() == Some(current.as_str()) {
            return Ok(None);
        }
        Ok(Some(Change {
            path,
            before: Some(current),
            after,
            executable: false,
        }))
    }

    /// Whether the switch is on in the file under `base` (`gateway
    /// doctor`); an unreadable or invalid file counts as off.
    pub(crate) fn is_on_at(&self, base: &Path) -> bool {
        let path = change::resolve(&base.join(self.path));
        matches!(change::read(&path), Ok(Some(text))
            if text.parse::<DocumentMut>().is_ok_and(|doc| self.is_on(&doc)))
    }
}

/// Whether two TOML texts say the same (both valid, equal as tables).
fn same_toml(a: &str, b: &str) -> bool {
    match (
        toml::from_str::<toml::Table>(a),
        toml::from_str::<toml::Table>(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODEX: TomlSwitch = TomlSwitch {
        path: ".codex/config.toml",
        table: "features",
        key: "hooks",
    };

    /// A user's config: comments, an odd order, and other features.
    const WITH_FEATURES: &str = "# my codex\nmodel = \"o3\"  # pinned\n\n[features]\n# keep plugins\nplugins = false\n\n[tui]\ntheme = \"dark\"\n";
    const WITHOUT_FEATURES: &str =
        "model = \"o3\"\n\n# the provider\n[model_providers.x]\nbase_url = \"http://x\"\n";
    const OFF: &str = "[features]\nhooks = false # not yet\nplugins = true\n";

    #[test]
    fn install_turns_it_on_and_uninstall_gives_back_the_bytes() {
        for original in [WITH_FEATURES, WITHOUT_FEATURES, OFF, ""] {
            let once = CODEX.install(Some(original)).unwrap();
            assert_eq!(CODEX.install(Some(&once)).unwrap(), once, "{original}");
            let doc: DocumentMut = once.parse().unwrap();
            assert!(CODEX.is_on(&doc), "{once}");
            // Everything else is kept, comments included.
            for line in original.lines().filter(|l| !l.starts_with("hooks")) {
                assert!(once.contains(line), "{line:?} lost:\n{once}");
            }
            let back = CODEX.uninstall(&once, Some(original)).unwrap();
            assert_eq!(back, Some(Some(original.to_owned())), "{original}");
        }
    }

    #[test]
    fn a_switch_that_was_already_on_is_left_alone() {
        let on = "[features]\nhooks = true\n";
        assert_eq!(CODEX.install(Some(on)).unwrap(), on);
        // No backup (install changed nothing): uninstall must not touch it
        // unless it is the file install creates from nothing.
        let mine = "model = \"o3\"\n[features]\nhooks = true\n";
        assert_eq!(CODEX.uninstall(mine, None).unwrap(), None);
        let created = CODEX.install(None).unwrap();
        assert_eq!(created, on);
        assert_eq!(CODEX.uninstall(&created, None).unwrap(), Some(None));
        // A backup with it on: nothing to revert.
        assert_eq!(CODEX.uninstall(on, Some(on)).unwrap(), None);
    }

    #[test]
    fn later_edits_survive_uninstall() {
        let once = CODEX.install(Some(WITHOUT_FEATURES)).unwrap();
        let edited = format!("{once}\n[tui]\ntheme = \"light\"\n");
        let back = CODEX.uninstall(&edited, Some(WITHOUT_FEATURES)).unwrap();
        let Some(Some(text)) = back else {
            panic!("{back:?}")
        };
        assert!(text.contains("theme = \"light\""), "{text}");
        assert!(!text.contains("hooks"), "{text}");
        assert!(text.contains("# the provider"), "{text}");
    }

    #[test]
    fn bad_files_are_refused() {
        for bad in ["features = 3\n", "[features\n", "model = \n"] {
            assert!(CODEX.install(Some(bad)).is_err(), "{bad}");
        }
    }
}
