#!/usr/bin/env bash
# What may enter the dependency tree (deny.toml): licenses, bans (wildcards;
# duplicates reported) and sources. cargo-deny is installed under
# target/tools once. Advisories need the RustSec database from GitHub,
# which CI cannot reach: they are left to `cargo deny check advisories`
# where the network allows (deny.toml says so).
set -euo pipefail
cd "$(dirname "$0")/.."

tools="$PWD/target/tools"
if ! [ -x "$tools/bin/cargo-deny" ]; then
    cargo install cargo-deny --locked --root "$tools" --version 0.20.2
fi
"$tools/bin/cargo-deny" --version
"$tools/bin/cargo-deny" check licenses bans sources
