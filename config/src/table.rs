//! [`Table`]: what every kind of subscriber reads its own keys with: where
//! the table is (for errors), the environment, and the keys every
//! subscriber has.

use std::ops::{Range, RangeInclusive};
use std::time::Duration;

use toml::Spanned;

use super::error::{ConfigError, Locator};
use super::{Env, Layer};

/// One `[[subscriber]]` table being read.
pub(super) struct Table<'a> {
    pub(super) at: &'a Locator<'a>,
    pub(super) env: &'a Env,
    /// The table as written: a kind's settings, its rules' derived ids.
    pub(super) written: &'a toml::Value,
    /// A key's full name for errors (`subscriber[2].timeout_ms`).
    pub(super) key: &'a dyn Fn(&str) -> String,
    pub(super) layer: Layer,
    pub(super) name: &'a str,
    /// Where the subscriber is named: errors about a key not written.
    pub(super) name_span: Range<usize>,
    /// `queue_size`, read with every subscriber's keys.
    pub(super) queue_size: usize,
}

impl Table<'_> {
    /// The key `name`'s full name.
    pub(super) fn key(&self, name: &str) -> String {
        (self.key)(name)
    }

    /// An error at `span` about the key `name`.
    pub(super) fn error(
        &self,
        span: Range<usize>,
        name: &str,
        message: impl Into<String>,
    ) -> ConfigError {
        self.at.error(span, self.key(name), message)
    }

    /// An error about the key `name` where the subscriber is named (the
    /// key is missing, or about the table as a whole).
    pub(super) fn error_here(&self, name: &str, message: impl Into<String>) -> ConfigError {
        self.error(self.name_span.clone(), name, message)
    }

    /// The same table, its keys named by `key` (a sub-table's).
    pub(super) fn with_key<'b>(&'b self, key: &'b dyn Fn(&str) -> String) -> Table<'b> {
        Table {
            key,
            name_span: self.name_span.clone(),
            ..*self
        }
    }

    /// An optional integer key within `range`, `default` when absent.
    pub(super) fn int<T: TryFrom<i64>>(
        &self,
        value: Option<&Spanned<i64>>,
        name: &str,
        range: RangeInclusive<i64>,
        default: T,
    ) -> Result<T, ConfigError> {
        super::numbers::int_or(self.at, value, &self.key(name), range, default)
    }

    /// `timeout_ms`: 1..=`max` ms, `default` when absent.
    pub(super) fn timeout(
        &self,
        value: Option<&Spanned<i64>>,
        max: i64,
        default: u64,
    ) -> Result<Duration, ConfigError> {
        self.int(value, "timeout_ms", 1..=max, default)
            .map(Duration::from_millis)
    }
}
