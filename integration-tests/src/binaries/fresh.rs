//! Whether a binary under test is older than a source it was built from.
//!
//! The check must hold after `cargo test --workspace` alone, after `cargo
//! build --workspace`, and after both in either order. So it reads only
//! what rustc and build scripts write for every unit in either command,
//! never the uplifted dep-info `<profile>/<binary>.d`, which only `cargo
//! build` writes:
//! - the binary's own unit: the file in `deps/` that *is* the uplifted
//!   binary (cargo uplifts by hard link) and rustc's dep-info beside it;
//! - every library unit (`deps/lib<crate>-<hash>.rlib`, with its dep-info
//!   `deps/<crate>-<hash>.d`) of the workspace packages the binary depends
//!   on, read from their `Cargo.toml`s; test builds make no `.rlib`, so
//!   files only a `#[cfg(test)]` build reads never count;
//! - those packages' build scripts' `rerun-if-changed` files.
//!
//! Only sources count, not files under the profile directory: the two
//! commands may build one package twice (dev-dependencies change how
//! features resolve), each unit with its own build-script output, and a
//! generated file of the unit built last is no reason to refuse a binary
//! linked from the other. A source newer than the binary is: cargo relinks
//! a binary whenever a source of it changes, so only a binary that was not
//! rebuilt since is older.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::modified;

/// `Err` (with the command that fixes it) when `binary`, built from the
/// workspace package `package`, is older than one of its sources. A
/// binary whose own unit cannot be found is checked against its
/// dependencies only, and a warning says how to make it checkable.
pub(super) fn check(
    binary: &Path,
    profile_dir: &Path,
    workspace: &Path,
    package: &str,
) -> Result<(), String> {
    let built = modified(binary).ok_or_else(|| format!("{}: no mtime", binary.display()))?;
    let deps = profile_dir.join("deps");
    let mut sources = BTreeSet::new();
    match own_unit(binary, &deps) {
        Some(dep_info) => sources.extend(read_dep_info(&dep_info, workspace)),
        None => eprintln!(
            "warning: {} is not a file cargo built in {} (cargo uplifts by hard link), so \
             its own sources cannot be checked for freshness; build it with `cargo build \
             --workspace`, or set HOOKGATE_GATEWAY_BIN and HOOKGATE_SHIM_BIN to test \
             binaries as they are",
            binary.display(),
            deps.display()
        ),
    }
    for member in closure(workspace, package)? {
        for dep_info in lib_units(&deps, &member.crate_name) {
            sources.extend(read_dep_info(&dep_info, workspace));
        }
        sources.extend(rerun_if_changed(&profile_dir.join("build"), &member));
    }
    let stale = sources
        .iter()
        .filter(|source| !source.starts_with(profile_dir))
        .find(|source| modified(source).is_some_and(|t| t > built));
    match stale {
        Some(source) => Err(format!(
            "{} is older than {}: run `cargo build --workspace` first",
            binary.display(),
            source.display()
        )),
        None => Ok(()),
    }
}

/// The dep-info of the unit in `deps/` that is the same file as `binary`.
fn own_unit(binary: &Path, deps: &Path) -> Option<PathBuf> {
    let crate_name = binary.file_name()?.to_str()?.replace('-', "_");
    let target = identity(binary)?;
    std::fs::read_dir(deps)
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| hash_suffix(path, &crate_name, "").is_some())
        .find(|path| identity(path) == Some(target))
        .map(|path| path.with_extension("d"))
}

/// A file's identity on its file system, so a hard link is recognised.
#[cfg(unix)]
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_path: &Path) -> Option<(u64, u64)> {
    None
}

/// `Some(hash)` when `path`'s name is `<prefix>-<16 hex digits><extension>`.
fn hash_suffix<'p>(path: &'p Path, prefix: &str, extension: &str) -> Option<&'p str> {
    let name = path.file_name()?.to_str()?;
    let hash = name
        .strip_prefix(prefix)?
        .strip_prefix('-')?
        .strip_suffix(extension)?;
    (hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())).then_some(hash)
}

/// The dep-info files of `crate_name`'s library units in `deps/`.
fn lib_units(deps: &Path, crate_name: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(deps) else {
        return Vec::new();
    };
    let rlib_prefix = format!("lib{crate_name}");
    entries
        .flatten()
        .filter_map(|entry| {
            let path = entry.path();
            let hash = hash_suffix(&path, &rlib_prefix, ".rlib")?;
            Some(deps.join(format!("{crate_name}-{hash}.d")))
        })
        .collect()
}

/// The prerequisites of a Makefile-style dep-info file's first rule
/// (`target: dep dep\ with\ space ...`); none when it cannot be read.
/// rustc writes a workspace member's sources relative to the workspace
/// root, where cargo runs it.
fn read_dep_info(path: &Path, workspace: &Path) -> Vec<PathBuf> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let line = text.lines().next().unwrap_or_default();
    let deps = line.split_once(": ").map_or("", |(_, deps)| deps);
    let mut paths = Vec::new();
    let mut current = String::new();
    let mut chars = deps.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => current.extend(chars.next()),
            ' ' => paths.push(std::mem::take(&mut current)),
            c => current.push(c),
        }
    }
    paths.push(current);
    paths
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| workspace.join(p))
        .collect()
}

/// The files `member`'s build script asked to be rerun for, from every
/// run of it (`build/<package>-<hash>/output`).
fn rerun_if_changed(build: &Path, member: &Member) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(build) else {
        return Vec::new();
    };
    entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|dir| hash_suffix(dir, &member.package, "").is_some())
        .filter_map(|dir| std::fs::read_to_string(dir.join("output")).ok())
        .flat_map(|output| {
            output
                .lines()
                .filter_map(|line| {
                    line.strip_prefix("cargo:rerun-if-changed=")
                        .or_else(|| line.strip_prefix("cargo::rerun-if-changed="))
                })
                .map(|file| member.dir.join(file))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A workspace package a binary is built from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Member {
    package: String,
    crate_name: String,
    dir: PathBuf,
}

/// `package` and every workspace package it depends on (normal
/// dependencies, any target), from the manifests.
fn closure(workspace: &Path, package: &str) -> Result<BTreeSet<Member>, String> {
    let members = workspace_members(workspace)?;
    let mut todo = vec![package.to_owned()];
    let mut closure = BTreeSet::new();
    while let Some(package) = todo.pop() {
        if closure.iter().any(|m: &Member| m.package == package) {
            continue;
        }
        let Some((dir, manifest)) = members.get(&package) else {
            continue;
        };
        todo.extend(normal_dependencies(manifest));
        let crate_name = manifest
            .get("lib")
            .and_then(|lib| lib.get("name"))
            .and_then(toml::Value::as_str)
            .map_or_else(|| package.replace('-', "_"), str::to_owned);
        closure.insert(Member {
            package,
            crate_name,
            dir: dir.clone(),
        });
    }
    if closure.is_empty() {
        return Err(format!(
            "{package} is not a member of {}",
            workspace.display()
        ));
    }
    Ok(closure)
}

/// Each `[workspace] members` package by name: its directory and manifest.
fn workspace_members(workspace: &Path) -> Result<BTreeMap<String, (PathBuf, toml::Value)>, String> {
    let root = manifest(&workspace.join("Cargo.toml"))?;
    let dirs = root
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(toml::Value::as_array)
        .ok_or("the workspace manifest has no [workspace] members")?;
    let mut members = BTreeMap::new();
    for dir in dirs.iter().filter_map(toml::Value::as_str) {
        let dir = workspace.join(dir);
        let manifest = manifest(&dir.join("Cargo.toml"))?;
        let name = manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
            .ok_or_else(|| format!("{}: no package name", dir.display()))?
            .to_owned();
        members.insert(name, (dir, manifest));
    }
    Ok(members)
}

/// The names under `[dependencies]` and `[target.*.dependencies]`.
fn normal_dependencies(manifest: &toml::Value) -> Vec<String> {
    let targets = manifest
        .get("target")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flat_map(|targets| targets.values());
    std::iter::once(manifest)
        .chain(targets)
        .filter_map(|table| table.get("dependencies")?.as_table())
        .flat_map(|deps| deps.keys().cloned())
        .collect()
}

fn manifest(path: &Path) -> Result<toml::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|err| format!("{}: {err}", path.display()))?;
    toml::from_str(&text).map_err(|err| format!("{}: {err}", path.display()))
}

#[cfg(test)]
mod tests;
