//! The gRPC-over-HTTP/2 details of a unary call (the "gRPC over HTTP2"
//! protocol document): message framing, `grpc-timeout`, status trailers
//! and the HTTP-to-gRPC status mapping. Pure functions, no I/O.

use std::time::Duration;

use http::{HeaderMap, HeaderValue, StatusCode};
use prost::bytes::{Buf as _, Bytes};
use tonic::Code;

use super::CallError;

/// A gRPC message's prefix: a compressed flag and the big-endian length.
pub(super) const PREFIX: usize = 5;

/// A parsed `grpc-status` and `grpc-message`.
#[derive(Debug)]
pub(super) struct Status {
    pub(super) code: Code,
    pub(super) message: String,
}

pub(super) fn status_of(headers: &HeaderMap) -> Result<Option<Status>, CallError> {
    let Some(code) = headers.get("grpc-status") else {
        return Ok(None);
    };
    let code = code
        .to_str()
        .ok()
        .and_then(|c| c.parse::<i32>().ok())
        .map(Code::from_i32)
        .ok_or_else(|| {
            // Bounded: the value ends up in logs and deny reasons.
            let shown = &code.as_bytes()[..code.len().min(32)];
            CallError::Protocol(format!(
                "bad grpc-status {:?}",
                String::from_utf8_lossy(shown)
            ))
        })?;
    let message = headers
        .get("grpc-message")
        .map(|m| percent_decode(m.as_bytes()))
        .unwrap_or_default();
    Ok(Some(Status { code, message }))
}

/// The message of a reply body: exactly one uncompressed gRPC message.
pub(super) fn unframe(mut body: Bytes) -> Result<Bytes, CallError> {
    if body.len() < PREFIX {
        return Err(CallError::Protocol(format!(
            "{} bytes, not a gRPC message",
            body.len()
        )));
    }
    let compressed = body.get_u8();
    let len = body.get_u32() as usize;
    if compressed != 0 {
        return Err(CallError::Protocol(
            "compressed message (none was offered)".to_owned(),
        ));
    }
    if len != body.len() {
        return Err(CallError::Protocol(format!(
            "message of {len} bytes announced, {} sent",
            body.len()
        )));
    }
    Ok(body)
}

/// `grpc-timeout`: at most 8 digits and a unit; milliseconds, rounded up.
pub(super) fn grpc_timeout(timeout: Duration) -> HeaderValue {
    let millis = timeout.as_nanos().div_ceil(1_000_000).clamp(1, 99_999_999);
    HeaderValue::try_from(format!("{millis}m"))
        .unwrap_or_else(|_| HeaderValue::from_static("99999999m"))
}

/// The gRPC code of a stream the subscriber reset (tonic's mapping).
pub(super) fn code_of_reset(reason: h2::Reason) -> Code {
    match reason {
        h2::Reason::NO_ERROR
        | h2::Reason::PROTOCOL_ERROR
        | h2::Reason::INTERNAL_ERROR
        | h2::Reason::FLOW_CONTROL_ERROR
        | h2::Reason::SETTINGS_TIMEOUT
        | h2::Reason::COMPRESSION_ERROR
        | h2::Reason::CONNECT_ERROR => Code::Internal,
        h2::Reason::REFUSED_STREAM => Code::Unavailable,
        h2::Reason::CANCEL => Code::Cancelled,
        h2::Reason::ENHANCE_YOUR_CALM => Code::ResourceExhausted,
        h2::Reason::INADEQUATE_SECURITY => Code::PermissionDenied,
        _ => Code::Unknown,
    }
}

/// The gRPC code of a non-200 HTTP reply (gRPC's "HTTP to gRPC status
/// code mapping").
pub(super) fn code_of_http(status: StatusCode) -> Code {
    match status.as_u16() {
        400 => Code::Internal,
        401 => Code::Unauthenticated,
        403 => Code::PermissionDenied,
        404 => Code::Unimplemented,
        429 | 502 | 503 | 504 => Code::Unavailable,
        _ => Code::Unknown,
    }
}

/// `grpc-message` is percent-encoded UTF-8; anything undecodable is kept
/// as is (lossily).
pub(super) fn percent_decode(raw: &[u8]) -> String {
    let hex = |b: Option<&u8>| b.and_then(|&b| (b as char).to_digit(16));
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        match (b, hex(raw.get(i + 1)), hex(raw.get(i + 2))) {
            (b'%', Some(hi), Some(lo)) => {
                out.push((hi * 16 + lo) as u8);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use http::StatusCode;
    use tonic::Code;

    use super::*;

    #[test]
    fn grpc_timeout_is_whole_milliseconds_rounded_up() {
        let cases = [
            (Duration::from_secs(1), "1000m"),
            (Duration::from_nanos(1), "1m"),
            (Duration::from_micros(1500), "2m"),
            (Duration::from_secs(1_000_000), "99999999m"),
        ];
        for (timeout, want) in cases {
            assert_eq!(grpc_timeout(timeout), want, "{timeout:?}");
        }
    }

    #[test]
    fn grpc_message_is_percent_decoded() {
        let cases: [(&[u8], &str); 5] = [
            (b"plain", "plain"),
            (b"a%20b%25", "a b%"),
            (b"%C3%BC", "ü"),
            (b"100%", "100%"),
            (b"%zz%4", "%zz%4"),
        ];
        for (raw, want) in cases {
            assert_eq!(percent_decode(raw), want);
        }
    }

    #[test]
    fn http_errors_map_to_grpc_codes() {
        let cases = [
            (400, Code::Internal),
            (401, Code::Unauthenticated),
            (403, Code::PermissionDenied),
            (404, Code::Unimplemented),
            (503, Code::Unavailable),
            (500, Code::Unknown),
        ];
        for (status, code) in cases {
            assert_eq!(code_of_http(StatusCode::from_u16(status).unwrap()), code);
        }
    }

    #[test]
    fn stream_resets_map_to_grpc_codes_as_tonic_maps_them() {
        let cases = [
            (h2::Reason::CANCEL, Code::Cancelled),
            (h2::Reason::INTERNAL_ERROR, Code::Internal),
            (h2::Reason::REFUSED_STREAM, Code::Unavailable),
            (h2::Reason::ENHANCE_YOUR_CALM, Code::ResourceExhausted),
            (h2::Reason::from(0xff), Code::Unknown),
        ];
        for (reason, code) in cases {
            assert_eq!(code_of_reset(reason), code, "{reason:?}");
        }
    }
}
