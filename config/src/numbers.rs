//! Integer and duration keys: each checked against its range at the span
//! of the value, or its default when the key is absent.

use std::ops::RangeInclusive;
use std::time::Duration;

use toml::Spanned;

use super::error::{ConfigError, Locator};

/// The longest wait any `*_ms` key may ask for (ten minutes).
const MAX_MILLIS: i64 = 600_000;

/// `value` if it lies in `range`, else an error naming the range.
pub(super) fn in_range(
    at: &Locator<'_>,
    value: &Spanned<i64>,
    key: &str,
    range: RangeInclusive<i64>,
) -> Result<i64, ConfigError> {
    let v = *value.get_ref();
    if range.contains(&v) {
        Ok(v)
    } else {
        let (min, max) = range.into_inner();
        Err(at.error(
            value.span(),
            key,
            format!("{v} is out of range {min}..={max}"),
        ))
    }
}

/// An optional integer key as `T`: `default` when absent, else checked
/// against `range` (which the caller keeps inside `T`).
pub(super) fn int_or<T: TryFrom<i64>>(
    at: &Locator<'_>,
    value: Option<&Spanned<i64>>,
    key: &str,
    range: RangeInclusive<i64>,
    default: T,
) -> Result<T, ConfigError> {
    let Some(value) = value else {
        return Ok(default);
    };
    let v = in_range(at, value, key, range)?;
    T::try_from(v).map_err(|_| at.error(value.span(), key, format!("{v} does not fit")))
}

/// An optional `*_ms` key: 1 ms to ten minutes, `default` when absent.
pub(super) fn millis(
    at: &Locator<'_>,
    value: Option<&Spanned<i64>>,
    key: &str,
    default: Duration,
) -> Result<Duration, ConfigError> {
    let Some(value) = value else {
        return Ok(default);
    };
    let ms = in_range(at, value, key, 1..=MAX_MILLIS)?;
    Ok(Duration::from_millis(ms.unsigned_abs()))
}
