#!/usr/bin/env bash
# Runs cargo for x86_64-pc-windows-gnu on this Linux machine.
#
# rustup cannot fetch another target's std here, so this uses Debian's
# rustc-web (a second, newer rustc at /usr/bin/rustc) with its std sources
# (rust-web-src) and cargo's -Zbuild-std, and links with MinGW-w64.
# RUSTC_BOOTSTRAP=1 unlocks -Zbuild-std on that stable compiler; nothing in
# hookgate's own code uses unstable features. Installs what it needs.
#
# Usage: .ci/windows/cargo.sh <cargo subcommand> [args...]
#   e.g. .ci/windows/cargo.sh check -p gateway-shim
#        .ci/windows/cargo.sh build --release -p hookgate-gateway --bin gateway
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
[ -x /usr/bin/rustc ] && /usr/bin/rustc -V | grep -q '^rustc 1\.9[6-9]' || need+=(rustc-web)
[ -x /usr/bin/cargo ] || need+=(cargo-web)
[ -d /usr/lib/rustlib/src/rust/library/std ] || need+=(rust-web-src)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
if [ "${WITH_CLIPPY:-0}" = 1 ] && ! [ -x /usr/bin/cargo-clippy ]; then need+=(rust-web-clippy); fi
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} (Debian) for the Windows build" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
fi

export RUSTC_BOOTSTRAP=1
# Debian's cargo-clippy/clippy-driver first: rustup's proxies in ~/.cargo/bin
# would run the rustup toolchain, which has no Windows std.
export PATH=/usr/bin:$PATH
export RUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
# Its own target dir: artifacts of the two compilers must not mix.
export CARGO_TARGET_DIR="${WINDOWS_TARGET_DIR:-$PWD/target/windows}"
# Static CRT: the shim and gateway must not need MinGW's DLLs beside them.
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-C target-feature=+crt-static"

sub="$1"
shift
exec /usr/bin/cargo "$sub" -Zbuild-std=std,panic_abort,panic_unwind --target x86_64-pc-windows-gnu "$@"
