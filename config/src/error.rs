//! Config errors that say where: file, line, column and key.
//!
//! A gateway that refuses to start must tell the user exactly what to fix;
//! "invalid config" alone sends them bisecting their file.

use std::fmt;
use std::ops::Range;

/// Why a config could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Invalid(#[from] ConfigError),
}

/// One invalid setting, located in its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    /// The key at fault (`subscriber[1].timeout_ms`), when known.
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(key) = &self.key {
            write!(f, "`{key}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Where something is named in its file: errors about it found later
/// (when layers merge) point there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub(super) file: String,
    pub(super) line: usize,
    pub(super) column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

impl Place {
    pub(super) fn error(&self, key: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            line: self.line,
            column: self.column,
            key: Some(key.into()),
            message: message.into(),
        }
    }
}

/// Locates errors in one source text.
#[derive(Debug)]
pub(super) struct Locator<'a> {
    pub(super) file: &'a str,
    pub(super) text: &'a str,
}

impl Locator<'_> {
    /// An error for `key` at byte `span` of the text.
    pub(super) fn error(
        &self,
        span: Range<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> ConfigError {
        let (line, column) = self.position(span.start);
        ConfigError {
            file: self.file.to_owned(),
            line,
            column,
            key: Some(key.into()),
            message: message.into(),
        }
    }

    /// Where byte `span` of the text is.
    pub(super) fn place(&self, span: Range<usize>) -> Place {
        let (line, column) = self.position(span.start);
        Place {
            file: self.file.to_owned(),
            line,
            column,
        }
    }

    /// Converts a TOML / serde error, guessing the key from the text at
    /// its span (serde messages name the expected type, not the key).
    pub(super) fn toml_error(&self, err: &toml::de::Error) -> ConfigError {
        let span = err.span().unwrap_or(0..0);
        let (line, column) = self.position(span.start);
        ConfigError {
            file: self.file.to_owned(),
            line,
            column,
            key: self.key_at(span),
            message: err.message().trim().to_owned(),
        }
    }

    /// 1-based line and column of byte `offset`.
    fn position(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..offset].chars().count() + 1;
        (line, column)
    }

    /// The key whose key or value sits at `span`: the span itself when it
    /// is a key (followed by `=`), else the last `key =` before it on the
    /// same line, else the table header of that line.
    fn key_at(&self, span: Range<usize>) -> Option<String> {
        let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
        let end = floor_char_boundary(self.text, span.end.clamp(start, self.text.len()));
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |i| start + i);
        let at = self.text[start..end].trim();
        if !at.is_empty() && self.text[end..line_end].trim_start().starts_with('=') {
            return Some(unquote(at));
        }
        let before = &self.text[line_start..start];
        if let Some(eq) = before.rfind('=') {
            let head = before[..eq].trim_end();
            let key_start = head
                .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '"')))
                .map_or(0, |i| i + 1);
            let key = &head[key_start..];
            if !key.is_empty() {
                return Some(unquote(key));
            }
        }
        let line = self.text[line_start..line_end].trim();
        line.starts_with('[')
            .then(|| {
                line.trim_matches(|c| c == '[' || c == ']')
                    .trim()
                    .to_owned()
            })
            .filter(|k| !k.is_empty())
    }
}

fn unquote(key: &str) -> String {
    key.trim_matches('"').to_owned()
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}
