#!/usr/bin/env bash
# Byte-to-client latency of `nmeastream serve`, of gpsd and of the floor (server-latency/floor.c:
# the least a server can do), in the same run: for 1, 60 and 1,000 watching clients, one epoch written into a pseudo-terminal every INTERVAL ms, timed
# until every client has read its TPV (server-latency/latency.c). Prints one JSON line per
# run, then a table; with ROUNDS=N each client count is run N times, the three servers taking
# turns, and the table gives each figure's median over the rounds (the machine's noise moves
# a single one-client run by 10 to 20%).
#
# With BASELINE=/path/to/an/older/nmeastream, that build takes its turn too (as "baseline"), and
# the table ends with nmeastream's figures as ratios to it, each the median of the rounds' ratios.
#
# With MODE=nmea, the clients want the sentences rather than the TPV, and are timed on each
# epoch's RMC: gpsd's and nmeastream's clients with `?WATCH={"enable":true,"nmea":true}`
# ("gpsd", "nmeastream"), and nmeastream's plain NMEA feed, `serve --nmea`, whose clients send
# nothing ("feed"). No floor; a BASELINE takes its turn with `?WATCH` as "nmeastream" does.
#
# usage: [ROUNDS=N] [BASELINE=path] [CLIENTS="1 1000"] Benchmarks/server-latency.sh [EPOCHS] [INTERVAL_MS]     (defaults: 1, 200, 50; clients 1 60 1000)
# Needs: cc, gpsd (Debian `gpsd`), and nmeastream built as it is installed
# (packaging/build-release.sh; or NMEASTREAM=/path/to/nmeastream).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
epochs="${1:-200}"
interval="${2:-50}"
rounds="${ROUNDS:-1}"
nmeastream="${NMEASTREAM:-$root/.build/static/release/nmeastream}"
[ -x "$nmeastream" ] || { echo "server-latency: build nmeastream first: packaging/build-release.sh ($nmeastream)" >&2; exit 1; }
baseline="${BASELINE:-}"
mode="${MODE:-json}"
servers="floor gpsd nmeastream"
if [ "$mode" = nmea ]; then
  servers="gpsd nmeastream feed"
  [ -n "$baseline" ] && servers="gpsd baseline nmeastream feed"
elif [ -n "$baseline" ]; then
  [ -x "$baseline" ] || { echo "server-latency: no baseline at $baseline" >&2; exit 1; }
  servers="floor gpsd baseline nmeastream"
fi
command -v gpsd >/dev/null || [ -x /usr/sbin/gpsd ] || { echo "server-latency: gpsd is not installed" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -Wall -o "$work/latency" "$here/server-latency/latency.c"
cc -O2 -Wall -o "$work/floor" "$here/server-latency/floor.c"
results="$work/results"
for clients in ${CLIENTS:-1 60 1000}; do
  for round in $(seq "$rounds"); do
    for server in $servers; do
      export LATENCY_MODE=json
      [ "$mode" = nmea ] && LATENCY_MODE=nmea
      if [ "$server" = feed ]; then
        line=$(LATENCY_MODE=feed "$work/latency" "$clients" "$epochs" "$interval" -- "$nmeastream" serve '{device}' --speed 9600 --listen '127.0.0.1:{gpsdport}' --nmea '127.0.0.1:{port}')
      elif [ "$server" = floor ]; then
        line=$("$work/latency" "$clients" "$epochs" "$interval" -- "$work/floor" '{device}' '{port}')
      elif [ "$server" = gpsd ]; then
        # -b: read-only, no probing; -n: the device open from the start (it cannot open a
        # pseudo-terminal once it has dropped its privileges).
        line=$("$work/latency" "$clients" "$epochs" "$interval" -- /usr/sbin/gpsd -b -N -n -S '{port}' -F "$work/gpsd.sock" '{device}')
      else
        binary="$nmeastream"
        [ "$server" = baseline ] && binary="$baseline"
        line=$("$work/latency" "$clients" "$epochs" "$interval" -- "$binary" serve '{device}' --speed 9600 --listen '127.0.0.1:{port}')
      fi
      echo "{\"server\":\"$server\",${line#\{}" | tee -a "$results"
    done
  done
done
python3 - "$results" <<'PY'
import json, sys
from statistics import median
runs = [json.loads(line) for line in open(sys.argv[1])]
# One row per server and client count: each figure the median over its rounds.
rows = []
for key in dict.fromkeys((r['server'], r['clients']) for r in runs):
    group = [r for r in runs if (r['server'], r['clients']) == key]
    row = {name: median(r[name] for r in group) for name in group[0] if name != 'server'}
    row.update(server=key[0], rounds=len(group))
    rows.append(row)
print()
print(f"{'server':<11}{'clients':>8}{'rounds':>7}{'refused':>8}{'missed':>7}{'p50 us':>8}{'p99 us':>8}{'max us':>8}{'CPU idle s':>11}{'CPU s':>7}{'peak MB':>8}")
for r in rows:
    print(f"{r['server']:<11}{r['clients']:>8}{r['rounds']:>7}{r['refused']:>8g}{r['missed']:>7g}{r['p50_us']:>8g}{r['p99_us']:>8g}{r['max_us']:>8g}"
          f"{r['idle_cpu_s']:>11.2f}{r['serving_cpu_s']:>7.2f}{r['peak_kB'] / 1024:>8.1f}")
# Against the baseline: per client count, the median over rounds of each round's ratio (a
# round's two runs were made minutes apart at most).
if any(r['server'] == 'baseline' for r in runs):
    print()
    print(f"{'nmeastream / baseline':<24}{'p50':>7}{'p99':>7}{'max':>7}{'CPU s':>7}{'peak MB':>8}")
    for clients in dict.fromkeys(r['clients'] for r in runs if r['server'] == 'nmeastream'):
        new = [r for r in runs if r['server'] == 'nmeastream' and r['clients'] == clients]
        old = [r for r in runs if r['server'] == 'baseline' and r['clients'] == clients]
        def ratio(name):
            values = [n[name] / o[name] for n, o in zip(new, old) if o[name]]
            return median(values) if values else float('nan')
        print(f"{str(clients) + ' clients':<24}{ratio('p50_us'):>7.3f}{ratio('p99_us'):>7.3f}{ratio('max_us'):>7.3f}"
              f"{ratio('serving_cpu_s'):>7.3f}{ratio('peak_kB'):>8.3f}")
PY
