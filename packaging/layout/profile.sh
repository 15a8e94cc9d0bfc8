#!/usr/bin/env bash
# Makes packaging/layout/hot-functions.txt anew from a profile of `serve` (profile.py), then
# builds the release binary with it. Needs valgrind. Run it when build-release.sh says the
# profile is stale, and commit the file; Benchmarks/serve-memory.py shows what it buys.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
command -v valgrind >/dev/null || { echo "profile: needs valgrind (Debian's valgrind)" >&2; exit 1; }
# The map of the link (the last link of the build is the command's: build-release.sh links it
# anew each time).
binary="$("$root/packaging/build-release.sh" -Xlinker "-Map=$work/link.map" -Xlinker --no-demangle | tail -n 1)"
python3 "$root/packaging/layout/profile.py" "$binary" "$work/link.map" "$root/packaging/layout/hot-functions.txt"
"$root/packaging/build-release.sh" | tail -n 1
