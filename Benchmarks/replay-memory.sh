#!/usr/bin/env bash
# Peak memory of `nmeastream replay --format json` on a 50 MB and a 500 MB log (the shared gpsd
# corpus, concatenated and repeated): it should stay flat, since nothing is kept from one
# chunk to the next. Prints the maximum resident set size of each run and their ratio.
# Needs a release build (made here), ../shared beside the project, and 600 MB in $TMPDIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus="$root/../shared/corpus/gpsd-nmea"
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$corpus"/*.log > "$work/one.nmea"
while [ "$(stat -c%s "$work/50.nmea" 2>/dev/null || echo 0)" -lt 52428800 ]; do cat "$work/one.nmea" >> "$work/50.nmea"; done
for _ in $(seq 10); do cat "$work/50.nmea"; done > "$work/500.nmea"

(cd "$root" && swift build -c release --product nmeastream >/dev/null)
bin="$root/.build/release/nmeastream"

peak() { /usr/bin/time -f "%M %e" "$bin" replay --format json "$1" 2>&1 >/dev/null | tail -n 1; }
read -r small small_seconds <<<"$(peak "$work/50.nmea")"
read -r large large_seconds <<<"$(peak "$work/500.nmea")"
echo "50 MB:  peak resident ${small} KiB (${small_seconds} s)"
echo "500 MB: peak resident ${large} KiB (${large_seconds} s)"
echo "ratio 500 MB / 50 MB: $(awk "BEGIN {printf \"%.2f\", $large / $small}")"
