//! `[otel]`: off unless asked, every value checked, secrets never inline.

use super::*;

#[test]
fn otel_is_off_unless_configured() {
    assert!(parse("").unwrap().otel.is_none());
    let off = "[otel]\nenabled = false\nendpoint = \"http://127.0.0.1:4317\"\n";
    assert!(parse(off).unwrap().otel.is_none());
}

#[test]
fn a_full_otel_section() {
    let headers = per_os("/run/secrets/otel-headers", r"C:\secrets\otel-headers");
    let config = parse(&format!(
        r#"
[otel]
endpoint = "http://127.0.0.1:4317"
service_name = "hookgate-dev"
sample_ratio = 0.25
headers_env = {{ authorization = "OTEL_TOKEN" }}
headers_file = '{headers}'
queue_size = 64
export_timeout_ms = 800
metrics_interval_ms = 1000
payloads = true
"#
    ))
    .unwrap();
    let otel = config.otel.unwrap();
    assert_eq!(otel.endpoint, "http://127.0.0.1:4317");
    assert_eq!(otel.service_name, "hookgate-dev");
    assert!((otel.sample_ratio - 0.25).abs() < f64::EPSILON);
    assert_eq!(
        otel.headers_env,
        vec![("authorization".to_owned(), "OTEL_TOKEN".to_owned())]
    );
    assert_eq!(
        otel.headers_file.as_deref(),
        Some(std::path::Path::new(headers))
    );
    assert_eq!(otel.queue_size, 64);
    assert_eq!(otel.export_timeout, std::time::Duration::from_millis(800));
    assert!(otel.payloads && !otel.locked);
}

#[test]
fn bad_otel_values_are_located() {
    for (text, key) in [
        ("[otel]\nservice_name = \"x\"\n", "otel.endpoint"),
        ("[otel]\nendpoint = \"https://c:4317\"\n", "otel.endpoint"),
        ("[otel]\nendpoint = \"c:4317\"\n", "otel.endpoint"),
        (
            "[otel]\nendpoint = \"http://c:4317\"\nsample_ratio = 1.5\n",
            "otel.sample_ratio",
        ),
        (
            "[otel]\nendpoint = \"http://c:4317\"\nqueue_size = 0\n",
            "otel.queue_size",
        ),
        (
            "[otel]\nendpoint = \"http://c:4317\"\nheaders_env = { authorization = 3 }\n",
            "otel.headers_env.authorization",
        ),
        (
            "[otel]\nendpoint = \"http://c:4317\"\nheaders_file = \"rel\"\n",
            "otel.headers_file",
        ),
        (
            "[otel]\nendpoint = \"http://c:4317\"\nlocked = true\n",
            "otel.locked",
        ),
    ] {
        let err = parse(text).unwrap_err();
        assert_eq!(err.key.as_deref(), Some(key), "{text}: {err}");
    }
}

/// Header values are credentials: never in plaintext to a collector off
/// this machine unless the user says so (issue #25, item 6).
#[test]
fn headers_go_in_plaintext_only_to_loopback_or_when_asked() {
    let file = per_os("/run/secrets/otel-headers", r"C:\secrets\otel-headers");
    let env = "headers_env = { authorization = \"OTEL_TOKEN\" }";
    let from_file = format!("headers_file = '{file}'");
    for headers in [env, from_file.as_str()] {
        let remote = format!("[otel]\nendpoint = \"http://collector.example:4317\"\n{headers}\n");
        let err = parse(&remote).unwrap_err();
        let key = if headers == env {
            "otel.headers_env"
        } else {
            "otel.headers_file"
        };
        assert_eq!(err.key.as_deref(), Some(key), "{err}");
        assert!(err.to_string().contains("plaintext"), "{err}");
        let asked = format!("{remote}headers_over_plaintext = true\n");
        assert!(parse(&asked).unwrap().otel.unwrap().headers_over_plaintext);
        for local in ["127.0.0.1", "localhost", "[::1]"] {
            let text = remote.replace("collector.example", local);
            assert!(parse(&text).is_ok(), "{text}");
        }
    }
    // No headers: nothing to protect.
    let bare = "[otel]\nendpoint = \"http://collector.example:4317\"\n";
    assert!(parse(bare).is_ok());
}
