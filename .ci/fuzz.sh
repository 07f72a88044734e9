#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for $1 seconds (default 60). The
# stable toolchain takes libFuzzer's nightly flags with RUSTC_BOOTSTRAP=1;
# cargo-fuzz is installed under target/tools once (.ci/tool.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
fuzz=$(bash .ci/tool.sh cargo-fuzz 0.13.2)
export PATH="$(dirname "$fuzz"):$PATH" RUSTC_BOOTSTRAP=1
cd fuzz
cargo fuzz build -O
log="$(mktemp)"
for target in $(cargo fuzz list); do
    echo "fuzz target $target: ${seconds}s"
    status=0
    cargo fuzz run -O "$target" -- -max_total_time="$seconds" -max_len=4096 >"$log" 2>&1 || status=$?
    grep -E '^Done [0-9]+ runs' "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log" >&2
        echo "fuzz target $target failed (exit $status); inputs in fuzz/artifacts/$target/" >&2
        exit 1
    fi
done
rm -f "$log"
