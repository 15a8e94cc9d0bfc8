#!/usr/bin/env bash
# The cost of the publisher's queue on disk (SQLite, one synced transaction per epoch) against
# the queue in memory: `nmeastream publish --log` of a long log with no broker, each way, RUNS
# times in turn; prints the median wall and CPU time of each, and per epoch.
# Usage: queue-cost.sh [LOG] [RUNS]   (nmeastream built with swift build -c release, or $NMEASTREAM)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=${NMEASTREAM:-$here/../.build/release/nmeastream}
[ -x "$binary" ] || { echo "build it first: swift build -c release --product nmeastream" >&2; exit 1; }
log=${1:-$here/../Tests/NMEATests/Fixtures/ublox-multi.nmea}
runs=${2:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The log twenty times over: long enough for the per-epoch cost to show.
for _ in $(seq 20); do cat "$log"; done > "$work/long.nmea"
epochs=$("$binary" replay --format json "$work/long.nmea" | grep -c '"class":"TPV"')
measure() { # prints "wall cpu" in seconds for one run of the command
  /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null 2>&1 || true
  # (A non-zero status is said on a line of its own before the figures.)
  tail -n 1 "$work/time" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
: > "$work/disk"; : > "$work/memory"
for _ in $(seq "$runs"); do
  rm -rf "$work/queue"
  measure "$binary" publish mqtt://127.0.0.1:1/bench --log "$work/long.nmea" --id bench --queue "$work/queue" --queue-size 1G --drain-timeout 0 >> "$work/disk"
  measure "$binary" publish mqtt://127.0.0.1:1/bench --log "$work/long.nmea" --id bench --queue-size 1G --drain-timeout 0 >> "$work/memory"
done
median() { sort -n -k"$2" "$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
for kind in disk memory; do
  wall=$(median "$work/$kind" 1); cpu=$(median "$work/$kind" 2)
  awk -v k="$kind" -v w="$wall" -v c="$cpu" -v e="$epochs" \
    'BEGIN { printf "%-6s %d epochs: wall %.3f s (%.3f ms an epoch), CPU %.3f s (%.3f ms an epoch)\n", k, e, w, 1000 * w / e, c, 1000 * c / e }'
done
