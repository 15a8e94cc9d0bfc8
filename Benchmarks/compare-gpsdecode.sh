#!/usr/bin/env bash
# Times `nmeastream replay --format json` against gpsd's `gpsdecode -j` on the same file, in
# the same run, and prints both medians and their ratio. The file is the shared gpsd corpus
# (../../shared/corpus/gpsd-nmea/*.log) concatenated and repeated to at least 50 MB.
# Needs: a release build (made here) and gpsdecode (Debian package gpsd-clients).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus="$root/../shared/corpus/gpsd-nmea"
runs=${RUNS:-3}
command -v gpsdecode >/dev/null || { echo "gpsdecode not found: apt-get install gpsd-clients" >&2; exit 1; }
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$corpus"/*.log > "$work/one.nmea"
while [ "$(stat -c%s "$work/big.nmea" 2>/dev/null || echo 0)" -lt 52428800 ]; do cat "$work/one.nmea" >> "$work/big.nmea"; done
size=$(stat -c%s "$work/big.nmea")

(cd "$root" && swift build -c release --product nmeastream >/dev/null)
bin="$root/.build/release/nmeastream"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -n 1; }

ours=$(for _ in $(seq "$runs"); do seconds "$bin" replay --format json "$work/big.nmea"; done | median)
theirs=$(for _ in $(seq "$runs"); do seconds sh -c "gpsdecode -j < '$work/big.nmea'"; done | median)
echo "input: $size bytes"
echo "nmeastream replay --format json: ${ours} s ($(awk "BEGIN {printf \"%.1f\", $size / $ours / 1e6}") MB/s)"
echo "gpsdecode -j:                    ${theirs} s ($(awk "BEGIN {printf \"%.1f\", $size / $theirs / 1e6}") MB/s)"
echo "ratio: $(awk "BEGIN {printf \"%.1f\", $theirs / $ours}")x"
