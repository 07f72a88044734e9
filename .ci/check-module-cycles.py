#!/usr/bin/env python3
"""Fails if the top-level modules of a crate import each other in a cycle.

ARCHITECTURE.md promises layers (in the gateway: config is data,
subscribers and builtins use it, the pipeline uses them; in the guard:
the shell parser, then argv and facts, then the rules over them): a cycle
means two modules can no longer be understood, tested or changed apart.
Test code may reach across (a test of the default guard loads the default
config), so `tests` modules and files are left out. The check reads
`crate::<module>` paths, and `super::<module>` in a top-level module's own
file (where `super` is the crate), in each top-level module of every
crate root below, separately.
"""
import os
import re
import sys

REPO = os.path.join(os.path.dirname(__file__), "..")
# (source directory, crate roots in it): every library and binary of the
# workspace with modules of its own, but the shim: it is `no_std`, and its
# platform layer's runtime entry (`sys::*::rt`) calls `run`, the one edge
# up its layers by design.
CRATES = [
    ("adapters/src", ("lib.rs",)),
    ("config/src", ("lib.rs",)),
    ("daemon/src", ("lib.rs",)),
    ("gateway/src", ("main.rs",)),
    ("guard/src", ("lib.rs",)),
    ("mask/src", ("lib.rs",)),
    ("memory/src", ("lib.rs",)),
    ("policy/src", ("lib.rs",)),
    ("subscriber/src", ("lib.rs",)),
    ("transport/src", ("lib.rs",)),
]
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M)
CRATE_PATH = re.compile(r"\bcrate::(\{[^}]*\}|\w+)")
SUPER_PATH = re.compile(r"\bsuper::(\{[^}]*\}|\w+)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def production_source(path):
    text = open(path, encoding="utf-8").read()
    # A `#[cfg(test)] mod x { ... }` block, by convention the file's tail.
    match = TEST_MOD.search(text)
    if match:
        text = text[: match.start()]
    # Comments name modules without depending on them.
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def files_of(root, module):
    """Each production file of `module`, and whether `super` in it is the crate."""
    single = os.path.join(root, module + ".rs")
    if os.path.isfile(single):
        yield single, True
    directory = os.path.join(root, module)
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if d != "tests"]
        for name in filenames:
            if name.endswith(".rs") and name != "tests.rs" and not name.endswith("_tests.rs"):
                top = dirpath == directory and name == "mod.rs"
                yield os.path.join(dirpath, name), top


def edges(root, root_file):
    declared = MOD_DECL.findall(open(os.path.join(root, root_file), encoding="utf-8").read())
    modules = [m for m in declared if m != "tests"]
    graph = {}
    for module in modules:
        targets = set()
        for path, super_is_crate in files_of(root, module):
            source = production_source(path)
            found_paths = CRATE_PATH.findall(source)
            if super_is_crate:
                found_paths += SUPER_PATH.findall(source)
            for found in found_paths:
                names = re.findall(r"\b(\w+)\b", found) if found.startswith("{") else [found]
                targets.update(n for n in names if n in modules and n != module)
        graph[module] = targets
    return graph


def cycle(graph):
    state = {}

    def visit(node, path):
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target, path + [target])
                if found:
                    return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


failed = False
for source_dir, root_files in CRATES:
    root = os.path.join(REPO, source_dir)
    for root_file in root_files:
        name = f"{source_dir}/{root_file}"
        graph = edges(root, root_file)
        if not graph:
            print(f"check-module-cycles: {name}: no top-level modules found", file=sys.stderr)
            failed = True
            continue
        found = cycle(graph)
        if found:
            print(f"check-module-cycles: {name}: " + " -> ".join(found), file=sys.stderr)
            failed = True
        else:
            print(f"check-module-cycles: {name}: no cycle among its {len(graph)} top-level modules")
sys.exit(1 if failed else 0)
