#!/bin/sh
# hookgate's installer, shipped in the release tarball:
#
#   ./install.sh [--prefix DIR]      (default DIR: ~/.local)
#
# Checks every file of the unpacked tarball against SHA256SUMS first and
# installs nothing unless all match; then copies bin/gateway and
# bin/gateway-shim into DIR/bin, the man pages into DIR/share/man/man1 and
# the shell completions under DIR/share. It never needs root and never
# downloads anything: it installs what is beside it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
prefix=

usage() {
    echo "usage: $0 [--prefix DIR]   (default: ~/.local)"
}

while [ $# -gt 0 ]; do
    case $1 in
    --prefix)
        [ $# -ge 2 ] || { usage >&2; exit 2; }
        prefix=$2
        shift 2
        ;;
    --prefix=*)
        prefix=${1#--prefix=}
        shift
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        echo "install.sh: unknown argument: $1" >&2
        usage >&2
        exit 2
        ;;
    esac
done

if [ -z "$prefix" ]; then
    if [ -z "${HOME:-}" ]; then
        echo "install.sh: HOME is not set; pass --prefix DIR" >&2
        exit 2
    fi
    prefix=$HOME/.local
fi
case $prefix in
/*) ;;
*) prefix=$(pwd)/$prefix ;;
esac

if command -v sha256sum >/dev/null 2>&1; then
    sum() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
    sum() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
    echo "install.sh: neither sha256sum nor shasum found: cannot verify, nothing installed" >&2
    exit 1
fi

cd "$here"
if [ ! -f SHA256SUMS ]; then
    echo "install.sh: SHA256SUMS missing beside $0: nothing installed" >&2
    exit 1
fi

# 1. Verify. Every listed file must match, and every file present must be
#    listed (nothing unchecked gets installed).
bad=0
while read -r want name; do
    [ -n "$name" ] || continue
    case $name in
    /* | *..*)
        echo "install.sh: SHA256SUMS names a path outside the package: $name" >&2
        bad=1
        continue
        ;;
    esac
    if [ ! -f "$name" ]; then
        echo "install.sh: MISSING: $name" >&2
        bad=1
    elif [ "$(sum "$name")" != "$want" ]; then
        echo "install.sh: CHECKSUM MISMATCH: $name" >&2
        bad=1
    fi
done <SHA256SUMS
for file in $(find . -type f ! -name SHA256SUMS | sed 's|^\./||'); do
    if ! awk -v f="$file" '$2 == f { found = 1 } END { exit !found }' SHA256SUMS; then
        echo "install.sh: NOT IN SHA256SUMS: $file" >&2
        bad=1
    fi
done
if [ "$bad" -ne 0 ]; then
    echo "install.sh: verification failed: nothing installed" >&2
    exit 1
fi
echo "verified every file against SHA256SUMS"

# 2. Install: each file copied beside its target, then renamed over it (a
#    running gateway keeps its old binary; no half-written file is ever in
#    place).
put() {
    mode=$1 src=$2 dest=$3
    mkdir -p "$(dirname "$dest")"
    cp "$src" "$dest.tmp.$$"
    chmod "$mode" "$dest.tmp.$$"
    mv -f "$dest.tmp.$$" "$dest"
    echo "installed $dest"
}

put 0755 bin/gateway "$prefix/bin/gateway"
put 0755 bin/gateway-shim "$prefix/bin/gateway-shim"
for page in share/man/man1/*.1; do
    put 0644 "$page" "$prefix/share/man/man1/$(basename "$page")"
done
put 0644 share/completions/gateway.bash "$prefix/share/bash-completion/completions/gateway"
put 0644 share/completions/_gateway "$prefix/share/zsh/site-functions/_gateway"
put 0644 share/completions/gateway.fish "$prefix/share/fish/vendor_completions.d/gateway.fish"

echo
case ":${PATH:-}:" in
*":$prefix/bin:"*) ;;
*) echo "note: $prefix/bin is not on your PATH; add it (e.g. in ~/.profile)." ;;
esac
echo "next: $prefix/bin/gateway install --all    (wires every agent found; then: gateway doctor)"
