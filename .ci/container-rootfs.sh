#!/usr/bin/env bash
# A clean Debian 12 (bookworm) root file system, as a container image holds
# it: debootstrap's `minbase` variant (the Essential and required packages,
# nothing the project installed), packed as target/container/rootfs.tar.
#
#   .ci/container-rootfs.sh [OUT]      (default: target/container/rootfs.tar)
#
# .ci/run starts this in the background at its beginning (it mostly waits
# on the Debian mirror while cargo builds), into a temporary directory
# outside target/ (the README's test command must meet a clean clone), and
# waits for it before .ci/check-release-container.sh. Run alone, it keeps
# the image under target/ so a rerun does not download it again. Needs root
# (debootstrap, as docker build would).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-target/container/rootfs.tar}
dir=$(dirname "$out")
mkdir -p "$dir"
if [ -s "$out" ]; then
    echo "container-rootfs: $out (already made)"
    exit 0
fi
if ! command -v debootstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
stage=$(mktemp -d "$dir/bootstrap.XXXXXX")
trap 'rm -rf "$stage"' EXIT
debootstrap --variant=minbase bookworm "$stage/root" http://deb.debian.org/debian
# The package caches are not part of the image.
rm -rf "$stage/root/var/cache/apt/archives/"*.deb "$stage/root/var/lib/apt/lists/"*
tar -C "$stage/root" --numeric-owner -cf "$out.partial" .
mv "$out.partial" "$out"
echo "container-rootfs: $out ($(du -h "$out" | cut -f1))"
