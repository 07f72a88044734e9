#!/usr/bin/env bash
# The harness's freshness check on the real target directory: with a
# source of the gateway newer than the built binary (as after an edit
# without a rebuild), an end-to-end test must refuse to run and say why.
# The source's mtime is put back afterwards, so nothing is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."

source_file=gateway/src/main.rs
saved=$(stat -c %Y "$source_file")
restore() { touch -d "@$saved" "$source_file"; }
trap restore EXIT

touch "$source_file"
# --workspace, as the README's test command: a `-p` run resolves features on
# its own and would rebuild half the dependency tree (five minutes on CI).
if out=$(cargo test --workspace --locked --test it -- the_binaries_under_test 2>&1); then
    echo "$out"
    echo "the harness tested a gateway older than $source_file" >&2
    exit 1
fi
if ! grep -q "is older than .*$source_file: run \`cargo build --workspace\` first" <<<"$out"; then
    echo "$out"
    echo "the run failed, but not with the freshness check's message" >&2
    exit 1
fi
echo "refused as it should: $(grep -o "target/[^ ]*gateway is older than [^:]*" <<<"$out" | head -1)"
