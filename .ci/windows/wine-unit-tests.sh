#!/usr/bin/env bash
# The unit tests of the Windows builds, run under Wine: builds the unit-test
# binaries of gateway-shim (its tests live in its bin; it has no lib),
# hookgate-daemon, hookgate-config, hookgate-transport, hookgate-guard, hookgate-wire,
# hookgate-dialect, hookgate-adapters and hookgate-identity for x86_64-pc-windows-gnu and runs
# every one from its package's directory, as `cargo test` would. Prints each binary's "test
# result" line; fails when a binary is missing, a test fails, a binary runs
# no tests, ends without its result line or outlives its deadline.
#
# What Wine cannot show (another user, real Windows' DACLs): see
# wine-smoke.sh and docs/windows.md.
#
# Usage: .ci/windows/wine-unit-tests.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. .ci/windows/wine-env.sh

fail() { echo "wine-unit-tests: FAIL: $*" >&2; exit 1; }

# The test binaries expected, by cargo target name.
expected=(gateway-shim hookgate_daemon hookgate_config hookgate_transport hookgate_guard hookgate_wire hookgate_dialect hookgate_adapters hookgate_identity)
# Per binary; the slowest takes about 5 s under Wine on 2 cores.
deadline=300s

target_dir="${WINDOWS_TARGET_DIR:-$PWD/target/windows}"
mkdir -p "$target_dir"
# Beside the build, so the binaries can be hard-linked rather than copied.
work=$(mktemp -d "$target_dir/wine-unit-tests.XXXXXX")
cleanup() {
    wine_teardown
    rm -rf "$work"
}
trap cleanup EXIT

echo "wine-unit-tests: building the test binaries" >&2
bash .ci/windows/cargo.sh test --no-run --locked \
    -p gateway-shim -p hookgate-daemon -p hookgate-config -p hookgate-transport -p hookgate-guard -p hookgate-wire \
    -p hookgate-dialect -p hookgate-adapters -p hookgate-identity --lib --bin gateway-shim --message-format=json-render-diagnostics >"$work/build.jsonl"

# name <TAB> package dir <TAB> executable, for every test binary built.
python3 - "$work/build.jsonl" >"$work/binaries.tsv" <<'PY'
import json, os, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["profile"]["test"] and m.get("executable"):
        pkg_dir = os.path.dirname(m["manifest_path"])
        print(f'{m["target"]["name"]}\t{pkg_dir}\t{m["executable"]}')
PY
for name in "${expected[@]}"; do
    n=$(awk -F'\t' -v n="$name" '$1 == n' "$work/binaries.tsv" | wc -l)
    [ "$n" = 1 ] || fail "expected one test binary for $name, cargo built $n: $(cut -f1 "$work/binaries.tsv" | tr '\n' ' ')"
done
[ "$(wc -l <"$work/binaries.tsv")" = "${#expected[@]}" ] ||
    fail "unexpected test binaries: $(cut -f1 "$work/binaries.tsv" | tr '\n' ' ')"

wine_setup "$work/wine"

failed=()
while IFS=$'\t' read -r name pkg_dir exe; do
    [ -f "$exe" ] || fail "$name: $exe is missing"
    # Each binary in its own folder with the stub DLL beside it.
    mkdir "$work/$name"
    run="$work/$name/$(basename "$exe")"
    ln "$exe" "$run" 2>/dev/null || cp "$exe" "$run"
    cp "$wine_stub_dll" "$work/$name/"
    log="$work/$name.log"
    rc=0
    (cd "$pkg_dir" && timeout "$deadline" "$wine" "$run" </dev/null) >"$log" 2>&1 || rc=$?
    result=$(grep -E '^test result: ' "$log" | tail -n 1 || true)
    printf 'wine-unit-tests: %-18s %s\n' "$name" "${result:-no test result line (exit $rc)}"
    if [ "$rc" != 0 ] || ! [[ $result == "test result: ok. "* ]] ||
        [[ $result == "test result: ok. 0 passed;"* ]]; then
        # The failures and their output; all of it when the binary died.
        if grep -q '^failures:$' "$log"; then sed -n '/^failures:$/,$p' "$log" >&2; else tail -n 60 "$log" >&2; fi
        failed+=("$name (exit $rc)")
    fi
done <"$work/binaries.tsv"

[ ${#failed[@]} = 0 ] || fail "${failed[*]}"
echo "wine-unit-tests: all ${#expected[@]} Windows unit-test binaries passed under Wine" >&2
