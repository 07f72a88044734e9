#!/usr/bin/env bash
# The release tarball on a clean container image, as a new user meets it:
# a fresh Debian 12 minbase root (.ci/container-rootfs.sh), no network, no
# Rust, no project files; an ordinary user checks the sums, unpacks, runs
# install.sh with its defaults, wires Claude Code with `gateway install`,
# and the hook command install wrote, run as the agent runs it (`sh -c`),
# autostarts the gateway on its embedded default: a force push is denied,
# `cargo test` is not. Then the installed shim runs in an empty root (no
# libc, no loader, nothing but itself) and answers by its fail mode: the
# static check, on the file the user got.
#
#   .ci/check-release-container.sh
#
# The tarball is packed by .ci/package.sh (the script .ci/release uses)
# from the static shim as it ships (.ci/check-shim-static.sh builds it)
# and the gateway's dev build: the release build of the gateway takes
# about 13 minutes on two cores, and the packing, the installer and the
# image do not depend on its profile. Needs root (chroot, namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."

shim=target/shim-static/x86_64-unknown-linux-gnu/dist-shim/gateway-shim
gateway=target/debug/gateway
# The image: .ci/run's (HOOKGATE_CI_ROOTFS), else made under target/.
rootfs=${HOOKGATE_CI_ROOTFS:-target/container/rootfs.tar}
fail() { echo "check-release-container: FAIL: $*" >&2; exit 1; }
[ -x "$shim" ] || fail "no static shim at $shim (run .ci/check-shim-static.sh first)"
[ -x "$gateway" ] || fail "no gateway at $gateway (cargo build first)"
[ -s "$rootfs" ] || bash .ci/container-rootfs.sh "$rootfs"

work=$(mktemp -d)
root=$work/root
cleanup() {
    # Nothing is mounted outside the namespaces; the trees are plain files.
    rm -rf "$work"
}
trap cleanup EXIT

tarball=$(bash .ci/package.sh "$gateway" "$shim" "$work/dist")
name=$(basename "$tarball")

mkdir "$root"
tar -C "$root" --numeric-owner -xf "$rootfs"
chroot "$root" useradd --create-home --shell /bin/sh alice
home=$root/home/alice
mkdir "$home/Downloads"
cp "$tarball" "$work/dist/SHA256SUMS" "$home/Downloads/"
# Two Claude Code PreToolUse calls for the Bash tool.
for pair in "push:git push --force origin main" "test:cargo test"; do
    sed "s|npm test -- --runInBand|${pair#*:}|" adapters/test_data/claude-code/PreToolUse.json \
        >"$home/${pair%%:*}.json"
done
cat >"$home/first-hour.sh" <<'SCRIPT'
set -eu
cd ~/Downloads
sha256sum -c SHA256SUMS
tar -xzf hookgate-*-x86_64-linux.tar.gz
./hookgate-*-x86_64-linux/install.sh
export PATH="$HOME/.local/bin:$PATH"
gateway --version
gateway install --agent claude-code --no-service
# The hook command as Claude Code runs it: the settings' first command.
command=$(sed -n 's/^ *"command": "\(.*\)",\{0,1\}$/\1/p' ~/.claude/settings.json | head -n 1 |
    sed 's/\\"/"/g; s/\\\\/\\/g')
echo "hook command: $command"
[ -n "$command" ] || { echo "no hook command in ~/.claude/settings.json"; exit 1; }
mkdir -p ~/project && cd ~/project
denied=$(sh -c "$command" <~/push.json)
echo "git push --force: $denied"
case "$denied" in
*'"permissionDecision":"deny"'*) ;;
*) echo "the force push was not denied"; exit 1 ;;
esac
allowed=$(sh -c "$command" <~/test.json)
echo "cargo test: ${allowed:-<no output: allowed>}"
case "$allowed" in
*deny*) echo "an ordinary command was denied"; exit 1 ;;
esac
gateway status
SCRIPT
uid=$(chroot "$root" id -u alice)
chown -R "$uid:$uid" "$home"

echo "check-release-container: $name on a clean Debian 12 minbase root, as an ordinary user, no network"
# A new mount, PID and network namespace: only loopback-less isolation, and
# every process (the autostarted gateway too) ends with the namespace.
unshare --mount --pid --net --ipc --uts --fork chroot "$root" /bin/sh -c \
    'mount -t proc proc /proc && exec setpriv --reuid alice --regid alice --init-groups --reset-env sh /home/alice/first-hour.sh' ||
    fail "the first hour in the container failed (above)"

installed=$home/.local/bin/gateway-shim
cmp -s "$installed" "$shim" || fail "the installed shim is not the packed one"
if readelf -lW "$installed" | grep -q INTERP || readelf -dW "$installed" | grep -q '(NEEDED)'; then
    fail "the installed shim is not statically linked"
fi
empty=$work/empty
mkdir "$empty"
cp "$installed" "$empty/gateway-shim"
set +e
open=$(unshare --mount --pid --net --fork chroot "$empty" /gateway-shim claude-code <"$home/push.json")
open_code=$?
closed=$(unshare --mount --pid --net --fork chroot "$empty" /gateway-shim claude-code --fail-closed <"$home/push.json")
closed_code=$?
set -e
echo "in an empty root, no gateway: fail-open exit $open_code ${open:-<no output>}; fail-closed exit $closed_code $closed"
[ "$open_code" -eq 0 ] || fail "the shim alone in an empty root did not run (exit $open_code)"
case "$closed" in
*'"permissionDecision":"deny"'*) ;;
*) fail "the shim alone in an empty root did not block fail-closed" ;;
esac
echo "check-release-container: the tarball installs and answers on a clean image; its shim runs with nothing beside it"
