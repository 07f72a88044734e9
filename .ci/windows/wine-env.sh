# Shared Wine setup for the scripts that run the Windows builds under Wine
# (wine-smoke.sh, wine-unit-tests.sh). Sourced, not run: `. .ci/windows/wine-env.sh`.
#
#   wine_setup DIR   installs Wine 8 (Debian's wine64) when missing, creates a
#                    private prefix DIR/prefix (exported as WINEPREFIX, with
#                    WINEDEBUG=-all), and builds the test-only stub
#                    bcryptprimitives.dll (bcryptprimitives.c says why) as
#                    $wine_stub_dll. Sets $wine, the loader to run .exe files
#                    with; each .exe needs a copy of $wine_stub_dll beside it.
#                    Starts the prefix's wineserver, kept until teardown.
#   wine_teardown    stops that prefix's wineserver; call it from the
#                    caller's EXIT trap, before removing DIR.
#
# Needs MinGW-w64, which .ci/windows/cargo.sh installs for the build.

wine_prefix=""

wine_setup() {
    local dir=$1
    if ! [ -x /usr/lib/wine/wine64 ] && ! command -v wine >/dev/null; then
        echo "installing wine64 (Debian) to run the Windows builds" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wine64 >&2
    fi
    wine=/usr/lib/wine/wine64
    [ -x "$wine" ] || wine=$(command -v wine)
    wine_server=/usr/lib/wine/wineserver64
    [ -x "$wine_server" ] || wine_server=wineserver

    mkdir -p "$dir"
    wine_stub_dll="$dir/bcryptprimitives.dll"
    x86_64-w64-mingw32-gcc -shared -O2 -o "$wine_stub_dll" \
        "$(dirname "${BASH_SOURCE[0]}")/bcryptprimitives.c" -ladvapi32

    wine_prefix="$dir/prefix"
    export WINEPREFIX="$wine_prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    # One wineserver for the whole run: with Wine's default, one that
    # exits when a program ends can race the next program's start ("wine
    # client error ... Connection reset by peer"). wine_teardown stops it.
    mkdir -p "$wine_prefix"
    # No stdio: a daemon holding CI's stdout open would keep CI waiting.
    "$wine_server" -p </dev/null >/dev/null 2>&1
    echo "creating a Wine prefix in $WINEPREFIX" >&2
    "$wine" wineboot -i >/dev/null 2>&1 || true
}

wine_teardown() {
    # Only the prefix wine_setup made: never a WINEPREFIX the caller had.
    if [ -n "${wine_prefix:-}" ]; then
        WINEPREFIX="$wine_prefix" "$wine_server" -k 2>/dev/null || true
    fi
}
