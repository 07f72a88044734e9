//! The call's deadline, from the `grpc-timeout` header the gateway sends
//! (tonic does not hand it to the service).

use std::time::Duration;

/// The deadline of a call that carries none (the gateway always sends one):
/// no handler runs unbounded.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30);

/// A `grpc-timeout` value: up to 8 digits and a unit (`H`, `M`, `S`, `m`,
/// `u`, `n`).
pub(crate) fn parse_timeout(value: &str) -> Option<Duration> {
    let unit = value.chars().last()?;
    let digits = value.get(..value.len() - unit.len_utf8())?;
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        'H' => Duration::from_secs(n * 3600),
        'M' => Duration::from_secs(n * 60),
        'S' => Duration::from_secs(n),
        'm' => Duration::from_millis(n),
        'u' => Duration::from_micros(n),
        'n' => Duration::from_nanos(n),
        _ => return None,
    })
}

/// How long the handler may take: the caller's timeout, at most
/// [`DEFAULT_DEADLINE`].
pub(crate) fn budget(header: Option<&str>) -> Duration {
    header
        .and_then(parse_timeout)
        .map_or(DEFAULT_DEADLINE, |t| t.min(DEFAULT_DEADLINE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeout_values() {
        assert_eq!(parse_timeout("500m"), Some(Duration::from_millis(500)));
        assert_eq!(parse_timeout("2S"), Some(Duration::from_secs(2)));
        assert_eq!(parse_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(
            parse_timeout("99999999n"),
            Some(Duration::from_nanos(99_999_999))
        );
        for bad in ["", "m", "123456789m", "5x", "-5m", "5 m", "é"] {
            assert_eq!(parse_timeout(bad), None, "{bad:?}");
        }
        assert_eq!(budget(Some("200m")), Duration::from_millis(200));
        assert_eq!(budget(Some("5M")), DEFAULT_DEADLINE, "capped");
        assert_eq!(budget(None), DEFAULT_DEADLINE);
    }
}
