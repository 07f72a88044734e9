#!/usr/bin/env bash
# End-to-end check of the Windows builds under Wine: the real gateway.exe
# and gateway-shim.exe talking over a named pipe.
#
# Differential: every case runs the same payload through the Linux build
# (gateway + gateway-shim over a Unix socket) and the Windows build under
# Wine, and requires the same stdout and exit code, so no expected reply is
# spelled here; each case also checks that the reply is the one it should
# be (a deny is a deny), so two equally broken builds cannot pass.
#
# What Wine cannot show: another user's connection being refused (Wine runs
# every process as one user) and real Windows' DACL enforcement. docs/windows.md
# says what is tested where.
#
# Usage: .ci/windows/wine-smoke.sh   (after .ci/windows/cargo.sh build)
#
# The dev profile: it reuses what the unit tests under Wine compiled (a
# release build cost CI twelve minutes), and the behaviour checked here
# does not depend on optimisation.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

. .ci/windows/wine-env.sh
. .ci/stop.sh

fail() { echo "wine-smoke: FAIL: $*" >&2; exit 1; }

win_bin="${WINDOWS_TARGET_DIR:-$root/target/windows}/x86_64-pc-windows-gnu/debug"
[ -f "$win_bin/gateway.exe" ] || fail "no $win_bin/gateway.exe: run .ci/windows/cargo.sh build first"
[ -f "$win_bin/gateway-shim.exe" ] || fail "no $win_bin/gateway-shim.exe"

cargo build --locked -q -p hookgate-gateway --bin gateway -p gateway-shim
lin_bin=${CARGO_TARGET_DIR:-$root/target}/debug

work=$(mktemp -d)
pids=()
cleanup() {
    stop_processes "${pids[@]}"
    wine_teardown
    rm -rf "$work"
}
trap cleanup EXIT

wine_setup "$work/wine"
# The programs under test, with the test-only ProcessPrng stub Wine 8 lacks.
mkdir -p "$work/bin"
cp "$win_bin/gateway.exe" "$win_bin/gateway-shim.exe" "$wine_stub_dll" "$work/bin/"

pipe='\\.\pipe\hookgate-smoke-'$$'\gateway'
sock="$work/linux/gateway.sock"
mkdir -m 0700 -p "$work/linux"

# One config for both builds: the embedded default's guard, audit into the
# work dir (a path each OS can open).
cat >"$work/linux.toml" <<TOML
[[subscriber]]
name = "guard"
builtin = "guard"
events = ["pre_tool_use"]
[[subscriber.rules]]
shell = '(^|\s)rm\s+-rf\s+/(\s|$)'
reason = "recursive delete of /"
TOML
cp "$work/linux.toml" "$work/windows.toml"

payload() { # $1 = shell command
    python3 - "$1" <<'PY'
import json, sys
p = json.load(open("adapters/test_data/claude-code/PreToolUse.json"))
p["tool_input"]["command"] = sys.argv[1]
print(json.dumps(p))
PY
}

# run_linux OUT_PREFIX [env...] -- args : runs the Linux shim on $work/in.json
run_linux() {
    local out=$1; shift
    local rc=0
    env "$@" HOOKGATE_SOCKET="$sock" "$lin_bin/gateway-shim" claude-code \
        <"$work/in.json" >"$out.stdout" 2>"$out.stderr" || rc=$?
    echo "$rc" >"$out.rc"
}
run_windows() {
    local out=$1; shift
    local rc=0
    env "$@" HOOKGATE_SOCKET="$pipe" "$wine" "$work/bin/gateway-shim.exe" claude-code \
        <"$work/in.json" >"$out.stdout" 2>"$out.stderr" || rc=$?
    echo "$rc" >"$out.rc"
}

# same NAME [env...] : both builds, same stdout and exit code.
same() {
    local name=$1; shift
    run_linux "$work/$name.linux" "$@"
    run_windows "$work/$name.windows" "$@"
    if ! cmp -s "$work/$name.linux.stdout" "$work/$name.windows.stdout" ||
        ! cmp -s "$work/$name.linux.rc" "$work/$name.windows.rc"; then
        for os in linux windows; do
            echo "--- $name on $os: exit $(cat "$work/$name.$os.rc")" >&2
            cat "$work/$name.$os.stdout" >&2
            echo "--- stderr" >&2
            cat "$work/$name.$os.stderr" >&2
        done
        fail "$name: the Windows build answered differently"
    fi
    echo "wine-smoke: ok: $name (exit $(cat "$work/$name.linux.rc"))" >&2
}

# 1. No gateway: the shim fails open, or closed when asked.
payload "npm test" >"$work/in.json"
same no-gateway-open
[ "$(cat "$work/no-gateway-open.linux.rc")" = 0 ] || fail "fail-open must exit 0"
same no-gateway-closed HOOKGATE_FAIL=closed
[ "$(cat "$work/no-gateway-closed.linux.rc")" != 0 ] ||
    grep -q deny "$work/no-gateway-closed.linux.stdout" || fail "fail-closed must block"

# 2. Both gateways up.
"$lin_bin/gateway" serve --config "$work/linux.toml" --socket "$sock" >/dev/null 2>"$work/linux-gateway.log" &
pids+=($!)
"$wine" "$work/bin/gateway.exe" serve --config "$work/windows.toml" --socket "$pipe" \
    >/dev/null 2>"$work/windows-gateway.log" &
pids+=($!)
for _ in $(seq 1 150); do
    if "$wine" "$work/bin/gateway.exe" status --socket "$pipe" >/dev/null 2>&1 &&
        [ -S "$sock" ]; then
        ready=1
        break
    fi
    sleep 0.2
done
[ "${ready:-}" = 1 ] || { cat "$work/windows-gateway.log" >&2; fail "gateway.exe did not come up"; }

payload "npm test" >"$work/in.json"
# Fail-closed, so a call that missed the gateway would block: an allow's
# reply is otherwise the same as the shim's fail-open answer.
same allow HOOKGATE_FAIL=closed
[ "$(cat "$work/allow.linux.rc")" = 0 ] && ! grep -q deny "$work/allow.linux.stdout" ||
    fail "the allow must reach the gateway and be allowed"
payload "rm -rf /" >"$work/in.json"
same deny
grep -q "recursive delete of /" "$work/deny.linux.stdout" "$work/deny.linux.stderr" ||
    fail "the deny does not carry the guard's reason"

# 3. status over the admin pipe counts what the gateway answered.
"$wine" "$work/bin/gateway.exe" status --json --socket "$pipe" >"$work/status.json" 2>"$work/status.err" ||
    { cat "$work/status.err" >&2; fail "gateway.exe status failed"; }
python3 - "$work/status.json" <<'PY' || fail "status counts are wrong: $(cat "$work/status.json")"
import json, sys
s = json.load(open(sys.argv[1]))
events = [(e["agent"], e["event"], e["count"], e["outcomes"]["deny"]) for e in s["events"]]
assert events == [("claude-code", "pre_tool_use", 2, 1)], events
# The config layers on the embedded default (audit, self-protection), so
# the guard is found by name, not by position.
guard = [x for x in s["subscribers"] if x["name"] == "guard"]
assert len(guard) == 1 and guard[0]["deny"] == 1, s["subscribers"]
PY
echo "wine-smoke: ok: status over the admin pipe" >&2
echo "wine-smoke: all Windows checks passed" >&2
