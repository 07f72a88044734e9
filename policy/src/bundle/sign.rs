//! Bundle signatures as OPA defines them (`opa sign`, `.signatures.json`).
//!
//! `.signatures.json` is `{"signatures": ["<JWT>"]}`: exactly one compact
//! JWS whose payload lists every file of the bundle with its digest
//! (`{"files": [{"name", "hash", "algorithm": "SHA-256"}], "keyid",
//! "scope"}`). The key is the one the config names, else the JWT header's
//! `kid`, else the payload's `keyid`; the signature must verify with that
//! key's algorithm (RS256 or ES256 here), the scope must match, and the
//! files must match exactly: none missing, none extra, every digest equal.
//! A structured file (`data.json`, `.manifest`) is hashed over its JSON in
//! a canonical form (object keys sorted, no whitespace), so reformatting
//! does not break a signature; any other file over its bytes.
//!
//! [`sign`] writes the same document `opa sign` does, for tests and tools.

use std::collections::BTreeMap;

use jsonwebtoken::{DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{BundleError, File};

pub const SIGNATURES_FILE: &str = ".signatures.json";

/// The signing algorithms accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Rs256,
    Es256,
}

impl Algorithm {
    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "RS256" => Some(Algorithm::Rs256),
            "ES256" => Some(Algorithm::Es256),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::Rs256 => "RS256",
            Algorithm::Es256 => "ES256",
        }
    }

    fn jwt(self) -> jsonwebtoken::Algorithm {
        match self {
            Algorithm::Rs256 => jsonwebtoken::Algorithm::RS256,
            Algorithm::Es256 => jsonwebtoken::Algorithm::ES256,
        }
    }
}

/// A verification key: its id, algorithm and PEM public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub id: String,
    pub algorithm: Algorithm,
    pub pem: String,
}

/// How bundles are verified.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    pub keys: Vec<Key>,
    /// Refuse a bundle without `.signatures.json`.
    pub required: bool,
    /// The key to use whatever the token says (OPA's `keyid` setting).
    pub key_id: Option<String>,
    /// The scope the token must carry (empty when `None`).
    pub scope: Option<String>,
}

impl Verification {
    /// Checks that every key parses for its algorithm, so a bad key is a
    /// config error at load time, not a refused bundle later.
    pub fn check_keys(&self) -> Result<(), String> {
        for key in &self.keys {
            decoding_key(key).map_err(|err| format!("key `{}`: {err}", key.id))?;
        }
        Ok(())
    }
}

#[derive(Debug, Deserialize, Serialize)]
struct Signatures {
    signatures: Vec<String>,
}

#[derive(Debug, Deserialize, Serialize)]
struct Claims {
    files: Vec<FileClaim>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    keyid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scope: Option<String>,
}

#[derive(Debug, Deserialize, Serialize)]
struct FileClaim {
    name: String,
    hash: String,
    #[serde(default)]
    algorithm: String,
}

fn signature_error(message: impl Into<String>) -> BundleError {
    BundleError::Signature(message.into())
}

fn decoding_key(key: &Key) -> Result<DecodingKey, jsonwebtoken::errors::Error> {
    match key.algorithm {
        Algorithm::Rs256 => DecodingKey::from_rsa_pem(key.pem.as_bytes()),
        Algorithm::Es256 => DecodingKey::from_ec_pem(key.pem.as_bytes()),
    }
}

/// Verifies `.signatures.json` (`signatures`) against the bundle's `files`.
pub(super) fn verify(
    signatures: &[u8],
    files: &[File],
    verification: &Verification,
) -> Result<(), BundleError> {
    let doc: Signatures = serde_json::from_slice(signatures)
        .map_err(|err| signature_error(format!("{SIGNATURES_FILE}: {err}")))?;
    let token = match doc.signatures.as_slice() {
        [token] => token,
        [] => {
            return Err(signature_error(
                "no JWT in .signatures.json (expected exactly one)",
            ));
        }
        _ => {
            return Err(signature_error(
                "several JWTs in .signatures.json (expected exactly one)",
            ));
        }
    };
    let header = jsonwebtoken::decode_header(token)
        .map_err(|err| signature_error(format!("the JWT's header: {err}")))?;
    let unverified = unverified_claims(token)?;
    let key_id = verification
        .key_id
        .clone()
        .or(header.kid)
        .or(unverified.keyid)
        .ok_or_else(|| signature_error("the JWT names no key (kid) and the config sets none"))?;
    let key = verification
        .keys
        .iter()
        .find(|k| k.id == key_id)
        .ok_or_else(|| {
            signature_error(format!(
                "signed with key `{key_id}`, which the config does not list"
            ))
        })?;
    let mut validation = Validation::new(key.algorithm.jwt());
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_aud = false;
    let decoding =
        decoding_key(key).map_err(|err| signature_error(format!("key `{key_id}`: {err}")))?;
    let claims = jsonwebtoken::decode::<Claims>(token, &decoding, &validation)
        .map_err(|err| {
            signature_error(format!(
                "the JWT does not verify with key `{key_id}` ({}): {err}",
                key.algorithm.as_str()
            ))
        })?
        .claims;
    let want_scope = verification.scope.as_deref().unwrap_or_default();
    if claims.scope.as_deref().unwrap_or_default() != want_scope {
        return Err(signature_error("scope mismatch"));
    }
    let mut signed: BTreeMap<&str, &FileClaim> = claims
        .files
        .iter()
        .map(|f| (f.name.trim_start_matches('/'), f))
        .collect();
    for (path, bytes) in files {
        if path == SIGNATURES_FILE {
            continue;
        }
        let claim = signed
            .remove(path.as_str())
            .ok_or_else(|| signature_error(format!("{path} is not covered by the signature")))?;
        if claim.algorithm != "SHA-256" {
            return Err(signature_error(format!(
                "{path}: hash algorithm {:?} is not supported (SHA-256 is)",
                claim.algorithm
            )));
        }
        let digest = file_digest(path, bytes)?;
        if !digest.eq_ignore_ascii_case(&claim.hash) {
            return Err(signature_error(format!(
                "{path}: digest mismatch (the file was changed after signing)"
            )));
        }
    }
    if let Some(missing) = signed.keys().next() {
        return Err(signature_error(format!(
            "{missing} is signed but missing from the bundle"
        )));
    }
    Ok(())
}

/// The payload of a compact JWS, not yet verified (for its `keyid`).
fn unverified_claims(token: &str) -> Result<Claims, BundleError> {
    let payload = token
        .split('.')
        .nth(1)
        .ok_or_else(|| signature_error("not a compact JWT"))?;
    let bytes =
        base64url(payload).ok_or_else(|| signature_error("the JWT's payload is not base64url"))?;
    serde_json::from_slice(&bytes)
        .map_err(|err| signature_error(format!("the JWT's payload: {err}")))
}

/// Unpadded base64url, decoded.
fn base64url(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' => 62,
            b'_' => 63,
            b'=' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// The hex SHA-256 OPA records for the file at `path`.
pub fn file_digest(path: &str, bytes: &[u8]) -> Result<String, BundleError> {
    let mut hash = Sha256::new();
    if is_structured(path) {
        let value: Value = serde_json::from_slice(bytes).map_err(|err| BundleError::BadFile {
            file: path.to_owned(),
            message: err.to_string(),
        })?;
        canonical(&value, &mut hash);
    } else {
        hash.update(bytes);
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Files OPA hashes as JSON rather than bytes.
fn is_structured(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "data.json" | ".manifest" | SIGNATURES_FILE)
}

/// OPA's canonical JSON: object keys sorted, `,` and `:` without spaces,
/// strings and numbers as Go's encoder writes them.
fn canonical(value: &Value, out: &mut Sha256) {
    match value {
        Value::Object(map) => {
            out.update(b"{");
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.update(b",");
                }
                out.update(go_string(key).as_bytes());
                out.update(b":");
                canonical(&map[key], out);
            }
            out.update(b"}");
        }
        Value::Array(items) => {
            out.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.update(b",");
                }
                canonical(item, out);
            }
            out.update(b"]");
        }
        Value::String(text) => out.update(go_string(text).as_bytes()),
        other => out.update(other.to_string().as_bytes()),
    }
}

/// A JSON string as Go's `encoding/json` writes it without HTML escaping:
/// serde_json's escapes plus U+2028 and U+2029.
fn go_string(text: &str) -> String {
    let quoted = Value::String(text.to_owned()).to_string();
    if quoted.contains(['\u{2028}', '\u{2029}']) {
        quoted
            .replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029")
    } else {
        quoted
    }
}

/// `.signatures.json` for `files` (path, bytes), signed with the PEM
/// private key `key_pem` as `key_id`: the document `opa sign` writes.
pub fn sign(
    files: &[(String, Vec<u8>)],
    algorithm: Algorithm,
    key_pem: &str,
    key_id: &str,
) -> Result<String, BundleError> {
    let mut claims = Claims {
        files: Vec::new(),
        keyid: None,
        scope: None,
    };
    for (path, bytes) in files {
        let path = path.trim_start_matches('/');
        if path == SIGNATURES_FILE {
            continue;
        }
        claims.files.push(FileClaim {
            name: path.to_owned(),
            hash: file_digest(path, bytes)?,
            algorithm: "SHA-256".to_owned(),
        });
    }
    let key = match algorithm {
        Algorithm::Rs256 => EncodingKey::from_rsa_pem(key_pem.as_bytes()),
        Algorithm::Es256 => EncodingKey::from_ec_pem(key_pem.as_bytes()),
    }
    .map_err(|err| signature_error(format!("signing key: {err}")))?;
    let mut header = Header::new(algorithm.jwt());
    header.kid = Some(key_id.to_owned());
    let token = jsonwebtoken::encode(&header, &claims, &key)
        .map_err(|err| signature_error(format!("signing: {err}")))?;
    serde_json::to_string(&Signatures {
        signatures: vec![token],
    })
    .map_err(|err| signature_error(err.to_string()))
}
