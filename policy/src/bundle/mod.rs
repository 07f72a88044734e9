//! OPA bundles: the gzip tar `opa build` writes, opened and checked.
//!
//! A bundle holds `.rego` modules, `data.json` documents (a file at
//! `roles/data.json` is `data.roles`), a `.manifest` (`revision`, `roots`)
//! and, when signed, `.signatures.json` ([`sign`]). [`open`] reads one
//! within bounds (compressed and unpacked bytes, file count, path shape),
//! verifies its signature when one is present or required, and checks
//! that its data and packages stay under its roots. Anything else in the
//! archive is ignored, as OPA does (and still covered by the signature).

pub mod revision;
pub mod sign;

use std::io::Read;

use serde::Deserialize;
use serde_json::Value;

use crate::engine::{DataFile, Module};
pub use revision::newer;
pub use sign::{Algorithm, Key, Verification};

/// The bounds on one bundle.
const MAX_UNPACKED_BYTES: u64 = 64 << 20;
const MAX_FILES: usize = 10_000;
const MAX_PATH_BYTES: usize = 1024;

/// Why a bundle was refused. Each says what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    #[error("not a gzip tar bundle: {0}")]
    Archive(String),
    #[error("the bundle unpacks to more than {} MiB", MAX_UNPACKED_BYTES >> 20)]
    TooLarge,
    #[error("the bundle has more than {MAX_FILES} files")]
    TooManyFiles,
    #[error("bad file path in the bundle: {0:?}")]
    BadPath(String),
    #[error("{file}: {message}")]
    BadFile { file: String, message: String },
    #[error("unsigned: the bundle has no .signatures.json and this subscriber requires one")]
    Unsigned,
    #[error("signature: {0}")]
    Signature(String),
    #[error("{0} is outside the manifest's roots ({1})")]
    OutsideRoots(String, String),
}

/// `.manifest`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Manifest {
    #[serde(default)]
    pub revision: String,
    /// `None`: the bundle owns all of `data`.
    #[serde(default)]
    pub roots: Option<Vec<String>>,
}

/// A verified bundle, ready to compile.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    pub manifest: Manifest,
    pub modules: Vec<Module>,
    pub data: Vec<DataFile>,
    /// Whether a signature was verified.
    pub signed: bool,
}

/// One file of the archive: its path without the leading `/`, its bytes.
type File = (String, Vec<u8>);

/// Reads, verifies and checks the gzip tar `bytes`.
pub fn open(bytes: &[u8], verification: &Verification) -> Result<Bundle, BundleError> {
    let files = unpack(bytes)?;
    let signatures = files
        .iter()
        .find(|(path, _)| path == sign::SIGNATURES_FILE)
        .map(|(_, bytes)| bytes.as_slice());
    let signed = match signatures {
        Some(signatures) => {
            sign::verify(signatures, &files, verification)?;
            true
        }
        None if verification.required => return Err(BundleError::Unsigned),
        None => false,
    };
    let mut bundle = Bundle {
        manifest: Manifest::default(),
        modules: Vec::new(),
        data: Vec::new(),
        signed,
    };
    for (path, bytes) in files {
        let name = path.rsplit('/').next().unwrap_or(&path);
        if path == ".manifest" {
            bundle.manifest = serde_json::from_slice(&bytes).map_err(|err| bad(&path, err))?;
        } else if path.ends_with(".rego") {
            let text = String::from_utf8(bytes).map_err(|err| bad(&path, err))?;
            bundle.modules.push(Module { name: path, text });
        } else if name == "data.json" {
            let value: Value = serde_json::from_slice(&bytes).map_err(|err| bad(&path, err))?;
            let dir = path.strip_suffix("data.json").unwrap_or_default();
            let keys = dir.split('/').filter(|k| !k.is_empty());
            bundle.data.push(DataFile {
                name: path.clone(),
                path: keys.map(str::to_owned).collect(),
                value,
            });
        }
    }
    check_roots(&bundle)?;
    Ok(bundle)
}

/// A gzip tar of `files` as `opa build` writes one (each path with a
/// leading `/`), for tests and tools that publish bundles. Paths must be
/// under 100 bytes (the plain tar header).
pub fn archive(files: &[(String, Vec<u8>)]) -> std::io::Result<Vec<u8>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (path, bytes) in files {
        let name = format!("/{}", path.trim_start_matches('/'));
        let mut header = tar::Header::new_old();
        let slot = &mut header.as_old_mut().name;
        if name.len() >= slot.len() {
            return Err(std::io::Error::other(format!("path too long: {name}")));
        }
        slot[..name.len()].copy_from_slice(name.as_bytes());
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        tar.append(&header, bytes.as_slice())?;
    }
    tar.into_inner()?.finish()
}

fn bad(path: &str, err: impl std::fmt::Display) -> BundleError {
    BundleError::BadFile {
        file: path.to_owned(),
        message: err.to_string(),
    }
}

/// The regular files of the gzip tar `bytes`, within the bounds.
fn unpack(bytes: &[u8]) -> Result<Vec<File>, BundleError> {
    let gz = flate2::read::GzDecoder::new(bytes);
    // One byte past the bound tells a bundle at the bound from one over it.
    let mut archive = tar::Archive::new(gz.take(MAX_UNPACKED_BYTES + 1));
    let files = match archive.entries() {
        Ok(mut entries) => read_entries(&mut entries),
        Err(err) => Err(BundleError::Archive(err.to_string())),
    };
    // A read cut short by the bound is "too large", not a broken archive.
    match files {
        Err(_) if entries_exhausted(archive) => Err(BundleError::TooLarge),
        other => other,
    }
}

/// Whether the unpacked stream reached the bound.
fn entries_exhausted<R: Read>(archive: tar::Archive<std::io::Take<R>>) -> bool {
    archive.into_inner().limit() == 0
}

fn read_entries<R: Read>(entries: &mut tar::Entries<'_, R>) -> Result<Vec<File>, BundleError> {
    let mut files = Vec::new();
    let mut total = 0u64;
    for entry in entries {
        let mut entry = entry.map_err(|err| BundleError::Archive(err.to_string()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        if files.len() == MAX_FILES {
            return Err(BundleError::TooManyFiles);
        }
        let raw = entry.path_bytes();
        let path = String::from_utf8_lossy(&raw).into_owned();
        let path = clean_path(&path).ok_or(BundleError::BadPath(path))?;
        total += entry.size();
        if total > MAX_UNPACKED_BYTES {
            return Err(BundleError::TooLarge);
        }
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|err| BundleError::Archive(err.to_string()))?;
        if files.iter().any(|(p, _)| *p == path) {
            return Err(BundleError::BadFile {
                file: path,
                message: "appears twice in the archive".into(),
            });
        }
        files.push((path, bytes));
    }
    Ok(files)
}

/// A bundle path without its leading `/` or `./`; `None` for anything that
/// could climb out (`..`), is absolute in another way, empty or too long.
fn clean_path(path: &str) -> Option<String> {
    let path = path.trim_start_matches("./").trim_start_matches('/');
    let ok = !path.is_empty()
        && path.len() <= MAX_PATH_BYTES
        && !path.contains('\\')
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..");
    ok.then(|| path.to_owned())
}

/// Every data document and package lies under one of the manifest's roots.
fn check_roots(bundle: &Bundle) -> Result<(), BundleError> {
    let Some(roots) = &bundle.manifest.roots else {
        return Ok(());
    };
    let under = |path: &str| {
        roots
            .iter()
            .any(|root| root.is_empty() || path == root || path.starts_with(&format!("{root}/")))
    };
    let listed = || roots.join(", ");
    for file in &bundle.data {
        let path = file.path.join("/");
        // Data at the very root is only allowed with an empty root.
        let covered = if path.is_empty() {
            roots.iter().any(String::is_empty)
        } else {
            under(&path)
        };
        if !covered {
            return Err(BundleError::OutsideRoots(file.name.clone(), listed()));
        }
    }
    for module in &bundle.modules {
        if let Some(package) = package_of(&module.text) {
            let path = package.replace('.', "/");
            if !under(&path) {
                return Err(BundleError::OutsideRoots(
                    format!("{} (package {package})", module.name),
                    listed(),
                ));
            }
        }
    }
    Ok(())
}

/// The `package a.b` a module declares (its first statement).
fn package_of(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .find_map(|line| line.strip_prefix("package "))
        .map(|rest| rest.trim().trim_end_matches(';').to_owned())
}
