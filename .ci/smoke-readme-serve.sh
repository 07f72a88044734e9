#!/usr/bin/env bash
# The README's first command on this checkout, as a new user runs it: the
# gateway on its embedded default config must answer a hook call. A
# dangerous Bash call through the real shim comes back denied by the
# default guard, an ordinary one allowed. Own HOME and XDG dirs, so no
# user config is read and nothing outside the temporary directory is
# touched.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/stop.sh

serve=$(bash .ci/readme-command.sh serve)
home=$(mktemp -d /tmp/hg-smoke.XXXXXX)
gateway_pid=
cleanup() {
    if [ -n "$gateway_pid" ]; then stop_processes "$gateway_pid"; fi
    rm -rf "$home"
}
trap cleanup EXIT
# cargo and rustup keep their homes; only the gateway's are new.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export HOME="$home" XDG_RUNTIME_DIR="$home/run" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state"
mkdir -m 700 "$XDG_RUNTIME_DIR"
socket="$XDG_RUNTIME_DIR/hookgate/gateway.sock"

# The profile the README's command builds, so the shim is its sibling.
profile=debug
release=()
case " $serve " in *" --release "*) profile=release release=(--release) ;; esac
cargo build "${release[@]}" --locked -p gateway-shim
shim=target/$profile/gateway-shim
# What the README's command builds, built first, so the wait below is for
# the gateway to listen and not for the compiler (the command itself then
# finds it fresh and runs it).
cargo build "${release[@]}" --locked -p hookgate-gateway --bin gateway

echo "running: $serve"
# `cargo run` execs the gateway once it is built: this pid becomes it.
$serve >"$home/serve.log" 2>&1 &
gateway_pid=$!
for _ in $(seq 1 120); do
    [ -S "$socket" ] && break
    if ! kill -0 "$gateway_pid" 2>/dev/null; then
        echo "the gateway exited before listening:" >&2
        cat "$home/serve.log" >&2
        exit 1
    fi
    sleep 1
done
[ -S "$socket" ] || { echo "no socket at $socket after 2 min" >&2; cat "$home/serve.log" >&2; exit 1; }

# A Claude Code PreToolUse call for a Bash command, answered through the shim.
call() {
    sed "s|npm test -- --runInBand|$1|" adapters/test_data/claude-code/PreToolUse.json |
        "$shim" claude-code
}

denied=$(call "git push --force origin main")
echo "git push --force: $denied"
case "$denied" in
    *'"permissionDecision":"deny"'*hookgate\ guard*) ;;
    *) echo "the default guard did not deny a force push" >&2; cat "$home/serve.log" >&2; exit 1 ;;
esac

allowed=$(call "cargo test")
echo "cargo test: ${allowed:-<no output: allowed>}"
case "$allowed" in
    *deny*) echo "the default config denied an ordinary command" >&2; exit 1 ;;
esac
echo "the README's serve command answers hooks on its embedded default"
