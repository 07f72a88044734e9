#!/usr/bin/env bash
# What may enter the dependency tree (deny.toml): licenses, bans (wildcards;
# duplicates reported) and sources. cargo-deny is installed under
# target/tools once (.ci/tool.sh). Advisories need the RustSec database from GitHub,
# which CI cannot reach: they are left to `cargo deny check advisories`
# where the network allows (deny.toml says so).
set -euo pipefail
cd "$(dirname "$0")/.."

deny=$(bash .ci/tool.sh cargo-deny 0.20.2)
"$deny" --version
"$deny" check licenses bans sources
