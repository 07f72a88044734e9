//! The held-out guard corpus in `test-data/guard-corpus/`: its rows, how a
//! command is written there, and the checks that keep it a corpus (three
//! fields, a category, a source that is a label, no command twice).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Categories starting with this are outside what docs/guard.md says the
/// default rules deny: reported, not counted in the bypass rate.
pub const OUT_OF_SCOPE: &str = "out-of-scope";

use hookgate_test_data::guard_corpus::{MAX_PAD, expand};

/// Which file a row comes from, and so what the guard should do with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Should be stopped (denied or asked).
    Dangerous,
    /// Should pass untouched.
    Ordinary,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Dangerous, Kind::Ordinary];

    pub fn file_name(self) -> &'static str {
        match self {
            Kind::Dangerous => "dangerous.tsv",
            Kind::Ordinary => "ordinary.tsv",
        }
    }
}

/// One command line of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    /// 1-based line in its file.
    pub line: usize,
    pub category: String,
    /// Where the shape comes from (a short label).
    pub source: String,
    /// The command as written in the file (escapes unexpanded): the row's
    /// identity, e.g. in known-gaps.tsv.
    pub written: String,
}

impl Row {
    /// Whether the row counts in its rate (not `out-of-scope:*`).
    pub fn counted(&self) -> bool {
        !self.category.starts_with(OUT_OF_SCOPE)
    }

    /// The command line sent to the agent's shell tool.
    pub fn command(&self) -> String {
        expand(&self.written)
    }
}

/// A file or row that does not make a corpus.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("reading {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}:{line}: {problem}")]
    Row {
        file: String,
        line: usize,
        problem: String,
    },
}

/// `test-data/guard-corpus/` of this workspace.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-data/guard-corpus")
}

/// Both files of the corpus in `dir`, dangerous rows first, every command
/// distinct across both.
pub fn load(dir: &Path) -> Result<Vec<Row>, CorpusError> {
    let mut rows = Vec::new();
    for kind in Kind::ALL {
        let path = dir.join(kind.file_name());
        let text = std::fs::read_to_string(&path).map_err(|source| CorpusError::Read {
            path: path.clone(),
            source,
        })?;
        rows.extend(parse(kind, &text)?);
    }
    let mut seen = HashSet::new();
    for row in &rows {
        if !seen.insert(row.written.as_str()) {
            return Err(row_error(
                row.kind.file_name(),
                row.line,
                format!("{:?} is in the corpus twice", row.written),
            ));
        }
    }
    Ok(rows)
}

/// The rows of one file: `category <TAB> source <TAB> command`, `#`
/// comments and blank lines skipped.
pub fn parse(kind: Kind, text: &str) -> Result<Vec<Row>, CorpusError> {
    let file = kind.file_name();
    let mut rows = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [category, source, written] = fields.as_slice() else {
            return Err(row_error(
                file,
                number,
                format!("{} fields, not 3", fields.len()),
            ));
        };
        if !is_category(category) {
            return Err(row_error(
                file,
                number,
                format!("bad category {category:?}"),
            ));
        }
        if source.trim().is_empty() || source.contains("://") {
            return Err(row_error(
                file,
                number,
                format!("source {source:?} is not a label"),
            ));
        }
        if written.trim().is_empty() {
            return Err(row_error(file, number, "empty command".to_owned()));
        }
        if let Some(n) = pads(written).find(|n| *n > MAX_PAD) {
            return Err(row_error(
                file,
                number,
                format!("{{{{pad:{n}}}}} is over {MAX_PAD}"),
            ));
        }
        rows.push(Row {
            kind,
            line: number,
            category: (*category).to_owned(),
            source: (*source).to_owned(),
            written: (*written).to_owned(),
        });
    }
    Ok(rows)
}

fn row_error(file: &str, line: usize, problem: String) -> CorpusError {
    CorpusError::Row {
        file: file.to_owned(),
        line,
        problem,
    }
}

/// `name` or `out-of-scope:name`, lower-case words joined by `-`.
fn is_category(category: &str) -> bool {
    let name = category
        .strip_prefix(OUT_OF_SCOPE)
        .map_or(Some(category), |rest| rest.strip_prefix(':'));
    name.is_some_and(|name| {
        !name.is_empty()
            && name
                .split('-')
                .all(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()))
    })
}

/// The N of every `{{pad:N}}` in `written`.
fn pads(written: &str) -> impl Iterator<Item = usize> + '_ {
    written
        .split("{{pad:")
        .skip(1)
        .filter_map(|rest| rest.split_once("}}"))
        .filter_map(|(n, _)| n.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_rows_are_refused_with_their_line() {
        let text = "# c\nrm\tsrc\trm -rf /\nbad\trow\n";
        let err = parse(Kind::Dangerous, text).unwrap_err().to_string();
        assert_eq!(err, "dangerous.tsv:3: 2 fields, not 3");
        for bad in [
            "Rm\tsrc\tx",
            "out-of-scope\tsrc\tx",
            "out-of-scope:\tsrc\tx",
            "a\thttps://x\tx",
            "a\tsrc\t ",
            "a\tsrc\t{{pad:9999999}}",
        ] {
            assert!(parse(Kind::Ordinary, bad).is_err(), "{bad:?}");
        }
        let rows = parse(Kind::Dangerous, "out-of-scope:self-tampering\ts\tpkill x\n").unwrap();
        assert!(!rows[0].counted());
        assert!(parse(Kind::Dangerous, "secret-read\ts\tcat .env\n").unwrap()[0].counted());
    }
}
