#!/usr/bin/env bash
# The Windows half of CI: lint and build gateway-shim and the gateway for
# x86_64-pc-windows-gnu (cargo.sh says how, on a Linux machine), run their
# unit tests under Wine (wine-unit-tests.sh), then run both binaries under
# Wine against the Linux build (wine-smoke.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

echo "==> windows: clippy (all targets, warnings are errors)"
WITH_CLIPPY=1 bash .ci/windows/cargo.sh clippy --locked \
    -p gateway-shim -p hookgate-gateway -p hookgate-daemon -p hookgate-config -p hookgate-transport -p hookgate-guard -p hookgate-wire \
    -p hookgate-dialect -p hookgate-adapters -p hookgate-identity --all-targets -- -D warnings

echo "==> windows: unit tests of gateway-shim, the daemon, config, transport, guard, wire, dialect, adapters and identity under Wine"
bash .ci/windows/wine-unit-tests.sh

echo "==> windows: gateway-shim's dependency tree (no tokio, tonic, prost or serde)"
tree=$(cargo tree --locked -p gateway-shim -e normal --target x86_64-pc-windows-gnu --prefix none)
if echo "$tree" | grep -E '^(tokio|tonic|prost|serde)' >/dev/null; then
    echo "check: gateway-shim for Windows depends on $(echo "$tree" | grep -E '^(tokio|tonic|prost|serde)' | sort -u | tr '\n' ' ')" >&2
    exit 1
fi

# One build for both: no crate changes shape with a feature, so the shim
# built next to the gateway is the one that ships.
echo "==> windows: build of gateway-shim.exe and gateway.exe (dev profile, as the unit tests)"
bash .ci/windows/cargo.sh build --locked -p gateway-shim -p hookgate-gateway --bins

echo "==> windows: gateway-shim.exe and gateway.exe under Wine"
bash .ci/windows/wine-smoke.sh
