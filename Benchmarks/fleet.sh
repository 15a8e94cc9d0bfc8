#!/usr/bin/env bash
# Fleet benchmark: VEHICLES simulated vehicles at 10 epochs a second each, each read and
# published by its own `nmeastream publish`, through one local mosquitto, timed end to end by
# one subscriber (fleet/fleet.c). Prints one JSON line per fleet size.
#
# usage: Benchmarks/fleet.sh [SECONDS] [VEHICLES...]     (defaults: 20, then 100)
# Needs: cc, libmosquitto-dev, mosquitto, and nmeastream built in release mode
# (swift build -c release --product nmeastream; or NMEASTREAM=/path/to/nmeastream).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
seconds="${1:-20}"
shift || true
sizes=("${@:-100}")
nmeastream="${NMEASTREAM:-$root/.build/release/nmeastream}"
[ -x "$nmeastream" ] || { echo "fleet: build nmeastream in release mode first ($nmeastream)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'kill $broker 2>/dev/null || true; rm -rf "$work"' EXIT
cc -O2 -Wall -o "$work/fleet" "$here/fleet/fleet.c" -lmosquitto -lpthread
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
printf 'user root\nlistener %s 127.0.0.1\nallow_anonymous true\nmax_connections -1\n' "$port" > "$work/mosquitto.conf"
ulimit -n 65536 2>/dev/null || true
mosquitto -c "$work/mosquitto.conf" >/dev/null 2>&1 &
broker=$!
sleep 0.5
for vehicles in "${sizes[@]}"; do
  "$work/fleet" "$vehicles" "$seconds" "$port" "$nmeastream" "$broker"
done
