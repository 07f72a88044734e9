#!/usr/bin/env bash
# Packs a gateway and a gateway-shim binary into the release tarball:
#
#   .ci/package.sh GATEWAY SHIM OUTDIR
#
# writes OUTDIR/hookgate-<version>-x86_64-linux.tar.gz and OUTDIR/SHA256SUMS
# (the tarball's sum) and prints the tarball's path. The version is the
# gateway binary's own (`gateway --version`, its Cargo.toml's), so a tarball
# can never be named for another build. The man pages and completions come
# from that binary too (`gateway man --dir`, `gateway completions`).
#
# One script for both users: .ci/release packs the release build with it,
# and the integration test `release_tarball` packs the debug build, so the
# tested install.sh runs on the layout that ships.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

if [ $# -ne 3 ]; then
    echo "usage: $0 GATEWAY SHIM OUTDIR" >&2
    exit 2
fi
gateway=$(realpath "$1")
shim=$(realpath "$2")
out=$3

version=$("$gateway" --version | awk '{print $2}')
[ -n "$version" ] || { echo "package: no version from $gateway --version" >&2; exit 1; }
name="hookgate-$version-x86_64-linux"

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
dir="$stage/$name"
mkdir -p "$dir/bin" "$dir/share/man/man1" "$dir/share/completions"

install -m 0755 "$gateway" "$dir/bin/gateway"
install -m 0755 "$shim" "$dir/bin/gateway-shim"
# No HOME: the pages must not depend on who packs them.
env -i PATH=/usr/bin:/bin "$dir/bin/gateway" man --dir "$dir/share/man/man1" >/dev/null
"$dir/bin/gateway" completions bash >"$dir/share/completions/gateway.bash"
"$dir/bin/gateway" completions zsh >"$dir/share/completions/_gateway"
"$dir/bin/gateway" completions fish >"$dir/share/completions/gateway.fish"
install -m 0644 "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/README.md" "$dir/"
install -m 0755 "$root/.ci/dist/install.sh" "$dir/install.sh"

# Every file but the sums themselves, relative paths, sorted.
(cd "$dir" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort |
    xargs sha256sum >SHA256SUMS)

tarball="$out/$name.tar.gz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime='@0' -czf "$tarball" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >SHA256SUMS)
echo "$tarball"
