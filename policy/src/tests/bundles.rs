//! Bundles: reading what `opa build` writes, signatures (RS256, ES256)
//! and every way a bundle is refused, rollback order, the cache, fetching.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use serde_json::json;

use super::support::{Signer, tar_gz};
use crate::bundle::revision::compare;
use crate::bundle::{self, BundleError, Verification, newer};
use crate::cache::Cache;
use crate::fetch::{Client, Fetched};

const POLICY: &[u8] = b"package hookgate\n\ndecision := {\"permission\": \"deny\", \"reason\": data.hookgate.reason} if {\n  input.tool.command == \"terraform destroy\"\n}\n";

fn files(revision: &str) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("/hookgate/policy.rego", POLICY.to_vec()),
        (
            "/hookgate/data.json",
            br#"{"reason": "no terraform destroy"}"#.to_vec(),
        ),
        (
            "/.manifest",
            format!(r#"{{"revision": "{revision}", "roots": ["hookgate"]}}"#).into_bytes(),
        ),
    ]
}

fn borrowed<'a>(files: &'a [(&'static str, Vec<u8>)]) -> Vec<(&'static str, &'a [u8])> {
    files.iter().map(|(p, b)| (*p, b.as_slice())).collect()
}

fn verification(signer: &Signer, required: bool) -> Verification {
    Verification {
        keys: vec![signer.key.clone()],
        required,
        ..Verification::default()
    }
}

#[test]
fn an_unsigned_bundle_is_read_with_its_manifest_data_and_modules() {
    let bytes = tar_gz(&borrowed(&files("7")));
    let b = bundle::open(&bytes, &Verification::default()).unwrap();
    assert_eq!(b.manifest.revision, "7");
    assert_eq!(b.manifest.roots, Some(vec!["hookgate".to_owned()]));
    assert_eq!(b.modules[0].name, "hookgate/policy.rego");
    assert_eq!(b.data[0].path, vec!["hookgate".to_owned()]);
    assert_eq!(b.data[0].value, json!({"reason": "no terraform destroy"}));
    assert!(!b.signed);
}

#[test]
fn signed_bundles_verify_with_es256_and_rs256() {
    for signer in [Signer::ec("ec-key"), Signer::rsa("rsa-key")] {
        let bytes = signer.signed(&borrowed(&files("1")));
        let b = bundle::open(&bytes, &verification(&signer, true)).unwrap();
        assert!(b.signed, "{}", signer.key.id);
    }
}

#[test]
fn unsigned_tampered_and_foreign_bundles_are_refused() {
    let signer = Signer::ec("k1");
    // Unsigned while required.
    let unsigned = tar_gz(&borrowed(&files("1")));
    assert_eq!(
        bundle::open(&unsigned, &verification(&signer, true)),
        Err(BundleError::Unsigned)
    );
    // A file changed after signing.
    let mut tampered_files = files("1");
    let signatures = {
        let owned: Vec<(String, Vec<u8>)> = tampered_files
            .iter()
            .map(|(p, b)| ((*p).to_owned(), b.clone()))
            .collect();
        bundle::sign::sign(&owned, signer.key.algorithm, &signer.private_pem, "k1").unwrap()
    };
    tampered_files[0].1 = b"package hookgate\n".to_vec();
    let mut all = borrowed(&tampered_files);
    all.push(("/.signatures.json", signatures.as_bytes()));
    let err = bundle::open(&tar_gz(&all), &verification(&signer, true)).unwrap_err();
    assert!(
        err.to_string()
            .contains("hookgate/policy.rego: digest mismatch"),
        "{err}"
    );
    // A file added after signing.
    let mut added = all.clone();
    added[0] = ("/hookgate/policy.rego", POLICY);
    added.push(("/hookgate/extra.rego", b"package hookgate.extra\n"));
    let err = bundle::open(&tar_gz(&added), &verification(&signer, true)).unwrap_err();
    assert!(
        err.to_string().contains("extra.rego is not covered"),
        "{err}"
    );
    // A file removed after signing.
    let removed: Vec<_> = added
        .iter()
        .filter(|(p, _)| *p != "/hookgate/data.json" && *p != "/hookgate/extra.rego")
        .cloned()
        .collect();
    let err = bundle::open(&tar_gz(&removed), &verification(&signer, true)).unwrap_err();
    assert!(err.to_string().contains("signed but missing"), "{err}");
    // Signed by a key the config does not trust under that id, or at all.
    let other = Signer::ec("k1");
    let err = bundle::open(
        &other.signed(&borrowed(&files("1"))),
        &verification(&signer, true),
    )
    .unwrap_err();
    assert!(err.to_string().contains("does not verify"), "{err}");
    let stranger = Signer::ec("k2");
    let err = bundle::open(
        &stranger.signed(&borrowed(&files("1"))),
        &verification(&signer, true),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("`k2`, which the config does not list"),
        "{err}"
    );
}

#[test]
fn a_signature_survives_reformatted_json() {
    let signer = Signer::ec("k1");
    let original = files("1");
    let owned: Vec<(String, Vec<u8>)> = original
        .iter()
        .map(|(p, b)| ((*p).to_owned(), b.clone()))
        .collect();
    let signatures =
        bundle::sign::sign(&owned, signer.key.algorithm, &signer.private_pem, "k1").unwrap();
    let mut reformatted = borrowed(&original);
    reformatted[1] = (
        "/hookgate/data.json",
        b"{\n  \"reason\" :  \"no terraform destroy\"\n}\n",
    );
    reformatted.push(("/.signatures.json", signatures.as_bytes()));
    bundle::open(&tar_gz(&reformatted), &verification(&signer, true)).unwrap();
}

#[test]
fn signatures_use_opas_document_shape() {
    let signer = Signer::ec("k1");
    let owned = vec![(
        "/data.json".to_owned(),
        br#"{"b":1,"a":[true,"x"]}"#.to_vec(),
    )];
    let doc = bundle::sign::sign(&owned, signer.key.algorithm, &signer.private_pem, "k1").unwrap();
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    let token = doc["signatures"][0].as_str().unwrap();
    let payload = token.split('.').nth(1).unwrap();
    let payload = base64_decode(payload);
    let claims: serde_json::Value = serde_json::from_slice(&payload).unwrap();
    // OPA's canonical JSON for {"b":1,"a":[true,"x"]} is {"a":[true,"x"],"b":1}.
    let expected = sha256_hex(br#"{"a":[true,"x"],"b":1}"#);
    assert_eq!(
        claims["files"],
        json!([{"name": "data.json", "hash": expected, "algorithm": "SHA-256"}])
    );
    let header: serde_json::Value =
        serde_json::from_slice(&base64_decode(token.split('.').next().unwrap())).unwrap();
    assert_eq!(header["alg"], "ES256");
    assert_eq!(header["kid"], "k1");
}

fn base64_decode(text: &str) -> Vec<u8> {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
    for c in text.bytes() {
        let v = alphabet.iter().position(|&a| a == c).unwrap() as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn data_and_packages_must_stay_under_the_roots() {
    let outside = [
        ("/other/data.json", br#"{"x": 1}"#.as_slice()),
        (
            "/.manifest",
            br#"{"revision": "1", "roots": ["hookgate"]}"#.as_slice(),
        ),
    ];
    let err = bundle::open(&tar_gz(&outside), &Verification::default()).unwrap_err();
    assert!(matches!(err, BundleError::OutsideRoots(..)), "{err}");
    let package = [
        ("/p.rego", b"package other\n".as_slice()),
        (
            "/.manifest",
            br#"{"revision": "1", "roots": ["hookgate"]}"#.as_slice(),
        ),
    ];
    let err = bundle::open(&tar_gz(&package), &Verification::default()).unwrap_err();
    assert!(err.to_string().contains("package other"), "{err}");
}

#[test]
fn hostile_archives_are_refused() {
    let climbing = [("/../evil.rego", b"package x\n".as_slice())];
    assert!(matches!(
        bundle::open(&tar_gz(&climbing), &Verification::default()),
        Err(BundleError::BadPath(_))
    ));
    assert!(matches!(
        bundle::open(b"not gzip", &Verification::default()),
        Err(BundleError::Archive(_))
    ));
    // A gzip bomb: 80 MiB of zeros in one file.
    let zeros = vec![0u8; 80 << 20];
    let bomb = tar_gz(&[("/big.json", zeros.as_slice())]);
    assert!(bomb.len() < 1 << 20);
    assert_eq!(
        bundle::open(&bomb, &Verification::default()),
        Err(BundleError::TooLarge)
    );
}

#[test]
fn revisions_order_naturally() {
    assert!(newer("10", "9"));
    assert!(newer("v1.2.10", "v1.2.9"));
    assert!(newer("2026-12-02T00:00:00Z", "2026-12-01T23:59:59Z"));
    assert!(!newer("7", "7"));
    assert!(!newer("007", "7"));
    assert!(!newer("r1", "r2"));
    assert_eq!(compare("a", "b"), std::cmp::Ordering::Less);
}

#[test]
fn the_cache_keeps_the_last_good_bundle_privately() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path().join("policy").join("sub"));
    assert_eq!(cache.load().unwrap(), None);
    cache.store(b"one", Some("\"e1\"")).unwrap();
    cache.store(b"two", None).unwrap();
    let cached = cache.load().unwrap().unwrap();
    assert_eq!(cached.bytes, b"two");
    assert_eq!(cached.etag, None);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(cache.dir()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        let file = std::fs::metadata(cache.dir().join("bundle.tar.gz")).unwrap();
        assert_eq!(file.permissions().mode() & 0o777, 0o600);
    }
}

/// Whatever is planted in the cache directory, a link, a FIFO or a file of
/// another user's (root gives it away, as CI runs), is refused, not read.
#[cfg(unix)]
#[test]
#[expect(clippy::disallowed_methods, reason = "a test, not on a runtime")]
fn the_cache_reads_only_a_regular_file_of_this_users() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path().join("c"));
    cache.store(b"mine", None).unwrap();
    let bundle = cache.dir().join("bundle.tar.gz");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::write(&elsewhere, b"theirs").unwrap();
    std::fs::remove_file(&bundle).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &bundle).unwrap();
    assert!(cache.load().is_err(), "a link is followed");
    std::fs::remove_file(&bundle).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&bundle).status();
    assert!(made.unwrap().success());
    assert!(cache.load().is_err(), "a FIFO is read (or waited on)");
    std::fs::remove_file(&bundle).unwrap();
    cache.store(b"mine", None).unwrap();
    std::os::unix::fs::chown(&bundle, Some(65534), None).expect("chown needs root, as CI runs");
    assert!(cache.load().is_err(), "another user's file is read");
}

/// A one-connection-per-request HTTP server on loopback answering each
/// request with `respond(if_none_match)`; returns the URL.
fn serve(
    answers: usize,
    respond: impl Fn(Option<String>) -> (u16, Option<&'static str>, Vec<u8>) + Send + 'static,
) -> (String, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/bundle.tar.gz", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        for _ in 0..answers {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream);
            let mut etag = None;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" || line.is_empty() {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("if-none-match:") {
                    etag = Some(v.trim().to_owned());
                }
            }
            let (status, tag, body) = respond(etag);
            let mut stream = reader.into_inner();
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            if let Some(tag) = tag {
                head.push_str(&format!("ETag: {tag}\r\n"));
            }
            head.push_str("\r\n");
            stream.write_all(head.as_bytes()).unwrap();
            stream.write_all(&body).unwrap();
            let _ = stream.read(&mut [0; 1]);
        }
    });
    (url, handle)
}

#[test]
fn fetching_sends_the_etag_and_reads_304_and_200() {
    let bytes = tar_gz(&borrowed(&files("1")));
    let body = bytes.clone();
    let (url, server) = serve(3, move |etag| match etag.as_deref() {
        Some("\"r1\"") => (304, None, Vec::new()),
        None => (200, Some("\"r1\""), body.clone()),
        Some(_) => (500, None, Vec::new()),
    });
    let client = Client::new(std::time::Duration::from_secs(5));
    assert_eq!(
        client.get(&url, None).unwrap(),
        Fetched::Bundle {
            bytes,
            etag: Some("\"r1\"".into())
        }
    );
    assert_eq!(
        client.get(&url, Some("\"r1\"")).unwrap(),
        Fetched::NotModified
    );
    let err = client.get(&url, Some("\"old\"")).unwrap_err();
    assert_eq!(err.to_string(), "HTTP 500 from the bundle server");
    server.join().unwrap();
}
