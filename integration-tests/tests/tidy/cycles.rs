//! No module cycle anywhere: in every crate of the workspace, at every
//! depth, no two sibling modules import each other, directly or round a
//! longer loop. ARCHITECTURE.md promises layers (config is data, the
//! subscribers use it, the pipeline uses them; in the guard the shell
//! parser, then argv and facts, then the rules), and a cycle means two
//! modules can no longer be understood, tested or changed apart.
//!
//! The check reads `crate::`, `super::` and `self::` paths (braced groups
//! included) in production code: test modules and files are left out, since
//! a test may reach across (a test of the default guard loads the default
//! config). A path from module `a::x` to `a::y::z` is an edge `x -> y`
//! among the children of `a`. Strings and comments are blanked first, so a
//! path in a doc comment or a message is no edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::source::{blank_strings_and_comments, without_test_items};
use crate::walk::{files, root, shown};

/// A module's path from its crate root (empty: the root).
type ModPath = Vec<String>;

/// Where an edge was first seen: the module whose path made it.
type Witnesses = BTreeMap<(ModPath, String, String), ModPath>;

/// The edges among each module's children: parent -> child -> children it uses.
type Graph = BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>>;

/// Crates left out: generated code only.
const SKIPPED_CRATES: [&str; 2] = ["proto", "test-data"];

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let mut found = Vec::new();
    let mut checked = 0;
    for (name, files) in crates() {
        checked += 1;
        for (cycle, witnesses) in cycles(&files) {
            found.push(format!("{name}: {cycle}\n    {}", witnesses.join("\n    ")));
        }
    }
    assert!(
        checked >= 10,
        "only {checked} crates found under {}",
        root().display()
    );
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// A planted cycle is found, at the top and deeper: the check can fail.
#[test]
fn a_planted_cycle_is_found() {
    let file = |path: &[&str], text: &str| {
        let path = path.iter().map(|s| s.to_string()).collect::<ModPath>();
        (path, text.to_owned())
    };
    let top = [
        file(&[], "mod a; mod b; mod c;"),
        file(&["a"], "use crate::b::Thing;"),
        file(
            &["b"],
            "use crate::c::Other; // crate::a in a comment is no edge",
        ),
        file(&["c"], "pub(crate) fn f() { super::a::g(\"crate::b\") }"),
    ];
    assert_eq!(names(cycles(&top)), ["a -> b -> c -> a"]);

    let deep = [
        file(&[], "mod outer;"),
        file(&["outer"], "mod x; mod y;"),
        file(&["outer", "x"], "use super::{y::{self, Y}, Z};"),
        file(&["outer", "y"], "mod inner;"),
        file(&["outer", "y", "inner"], "use crate::outer::x::X;"),
    ];
    assert_eq!(names(cycles(&deep)), ["outer: x -> y -> x"]);
    assert_eq!(
        cycles(&deep)[0].1,
        ["x -> y: in outer::x", "y -> x: in outer::y::inner"]
    );

    let tests_only = [
        file(&[], "mod a; mod b;"),
        file(&["a"], "use crate::b::B;"),
        file(
            &["b"],
            "#[cfg(test)]\nmod tests {\n    use crate::a::A;\n}\n",
        ),
    ];
    assert_eq!(names(cycles(&tests_only)), Vec::<String>::new());
}

fn names(cycles: Vec<(String, Vec<String>)>) -> Vec<String> {
    cycles.into_iter().map(|(name, _)| name).collect()
}

/// Every crate's production files, by crate: `src/` from its root, and
/// each `src/bin/` program as a crate of its own.
fn crates() -> Vec<(String, Vec<(ModPath, String)>)> {
    let mut crates = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root())
        .expect("read the workspace root")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|dir| dir.join("Cargo.toml").is_file() && dir.join("src").is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = shown(&dir);
        if SKIPPED_CRATES.contains(&name.as_str()) {
            continue;
        }
        let src = dir.join("src");
        let bin = src.join("bin");
        let mut library = Vec::new();
        let mut programs: BTreeMap<String, Vec<(ModPath, String)>> = BTreeMap::new();
        for path in files(&src, ".rs") {
            if is_test_file(&path) {
                continue;
            }
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            match path.strip_prefix(&bin) {
                Ok(rest) => {
                    let mut parts = components(rest);
                    let program = parts.remove(0);
                    let program = program.trim_end_matches(".rs").to_owned();
                    let module = module_path(&parts);
                    programs.entry(program).or_default().push((module, text));
                }
                Err(_) => {
                    let rel = path.strip_prefix(&src).unwrap_or(&path);
                    library.push((module_path(&components(rel)), text));
                }
            }
        }
        crates.push((name.clone(), library));
        for (program, files) in programs {
            crates.push((format!("{name} (bin {program})"), files));
        }
    }
    crates
}

fn components(path: &Path) -> Vec<String> {
    path.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect()
}

/// Test code by its file: `tests.rs`, `*_tests.rs`, or under `tests/`.
fn is_test_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// `a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs`, `main.rs` (and a
/// program's own `main.rs`) are the root.
fn module_path(parts: &[String]) -> ModPath {
    let mut path: ModPath = parts.to_vec();
    if let Some(last) = path.pop() {
        let stem = last.trim_end_matches(".rs");
        let root = path.is_empty() && matches!(stem, "lib" | "main");
        if stem != "mod" && !root {
            path.push(stem.to_owned());
        }
    }
    path
}

/// Each cycle among sibling modules, as `parent: a -> b -> a`, with the
/// module each of its edges was first seen in.
fn cycles(files: &[(ModPath, String)]) -> Vec<(String, Vec<String>)> {
    let mut modules: BTreeSet<ModPath> = BTreeSet::new();
    let mut uses: Vec<(ModPath, ModPath)> = Vec::new();
    for (module, text) in files {
        let code = without_test_items(&blank_strings_and_comments(text));
        for prefix in 0..=module.len() {
            modules.insert(module[..prefix].to_vec());
        }
        for (from, to) in crate::paths::resolved(module, &code) {
            modules.insert(from.clone());
            uses.push((from, to));
        }
    }
    let mut graph = Graph::new();
    let mut witnesses = Witnesses::new();
    for (from, to) in uses {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if from.len() <= common || to.len() <= common {
            continue;
        }
        let (parent, a, b) = (&from[..common], &from[common], &to[common]);
        if !modules.contains(&to[..=common]) {
            continue;
        }
        witnesses
            .entry((parent.to_vec(), a.clone(), b.clone()))
            .or_insert_with(|| from.clone());
        graph
            .entry(parent.to_vec())
            .or_default()
            .entry(a.clone())
            .or_default()
            .insert(b.clone());
    }
    graph
        .iter()
        .filter_map(|(parent, edges)| {
            let cycle = first_cycle(edges)?;
            let seen = cycle
                .windows(2)
                .map(|pair| {
                    let key = (parent.clone(), pair[0].clone(), pair[1].clone());
                    let at = witnesses
                        .get(&key)
                        .map(|m| m.join("::"))
                        .unwrap_or_default();
                    format!("{} -> {}: in {at}", pair[0], pair[1])
                })
                .collect();
            let cycle = cycle.join(" -> ");
            let name = if parent.is_empty() {
                cycle
            } else {
                format!("{}: {cycle}", parent.join("::"))
            };
            Some((name, seen))
        })
        .collect()
}

/// The first cycle a depth-first walk meets, closed (`a, b, a`).
fn first_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit<'a>(
        node: &'a str,
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        open: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        open.push(node);
        for next in edges.get(node).into_iter().flatten() {
            if let Some(at) = open.iter().position(|n| n == next) {
                let mut cycle: Vec<String> = open[at..].iter().map(|s| s.to_string()).collect();
                cycle.push(next.clone());
                return Some(cycle);
            }
            if !done.contains(next.as_str())
                && let Some(cycle) = visit(next, edges, open, done)
            {
                return Some(cycle);
            }
        }
        open.pop();
        done.insert(node);
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if !done.contains(node.as_str())
            && let Some(cycle) = visit(node, edges, &mut Vec::new(), &mut done)
        {
            return Some(cycle);
        }
    }
    None
}
