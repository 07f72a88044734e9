#!/usr/bin/env python3
"""Fails if the gateway's top-level modules import each other in a cycle.

ARCHITECTURE.md promises layers (config is data, subscribers and builtins
use it, the pipeline uses them): a cycle means two modules can no longer
be understood, tested or changed apart. Test code may reach across (a test
of the guard loads the default config), so `tests` modules and files are
left out. The check reads `crate::<module>` paths in each top-level module
of the library (lib.rs) and of the binary (main.rs) separately.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "gateway", "src")
MOD_DECL = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", re.M)
CRATE_PATH = re.compile(r"crate::(\{[^}]*\}|\w+)")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def production_source(path):
    text = open(path, encoding="utf-8").read()
    # A `#[cfg(test)] mod x { ... }` block, by convention the file's tail.
    match = TEST_MOD.search(text)
    if match:
        text = text[: match.start()]
    # Comments name modules without depending on them.
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def files_of(module):
    single = os.path.join(ROOT, module + ".rs")
    if os.path.isfile(single):
        yield single
    directory = os.path.join(ROOT, module)
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = [d for d in dirnames if d != "tests"]
        for name in filenames:
            if name.endswith(".rs") and name != "tests.rs" and not name.endswith("_tests.rs"):
                yield os.path.join(dirpath, name)


def edges(root_file):
    modules = MOD_DECL.findall(open(os.path.join(ROOT, root_file), encoding="utf-8").read())
    graph = {}
    for module in modules:
        targets = set()
        for path in files_of(module):
            for found in CRATE_PATH.findall(production_source(path)):
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
for root_file in ("lib.rs", "main.rs"):
    found = cycle(edges(root_file))
    if found:
        print(f"check-module-cycles: {root_file}: " + " -> ".join(found), file=sys.stderr)
        failed = True
    else:
        print(f"check-module-cycles: {root_file}: no cycle among its top-level modules")
sys.exit(1 if failed else 0)
