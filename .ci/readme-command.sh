#!/usr/bin/env bash
# Prints one of the README's "Two commands (from a checkout)", exactly as
# the README shows it, so CI runs what a new user types:
#   .ci/readme-command.sh serve   # the first: the gateway on its embedded default
#   .ci/readme-command.sh test    # the second: the tests
set -euo pipefail
cd "$(dirname "$0")/.."

which=${1:?usage: readme-command.sh serve|test}
case "$which" in
    serve) n=1 ;;
    test) n=2 ;;
    *) echo "usage: readme-command.sh serve|test" >&2; exit 64 ;;
esac

# The n-th ```sh block of the section, one command line.
command=$(awk -v n="$n" '
    /^## / { in_section = ($0 == "## Two commands (from a checkout)") }
    in_section && /^```sh$/ { block++; in_block = 1; next }
    in_block && /^```$/ { in_block = 0; next }
    in_section && in_block && block == n { print }
' README.md)

if [ -z "$command" ] || [ "$(printf '%s\n' "$command" | wc -l)" -ne 1 ]; then
    echo "README.md: section \"Two commands (from a checkout)\" has no single-line sh block $n" >&2
    exit 1
fi
printf '%s\n' "$command"
