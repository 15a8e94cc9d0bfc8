#!/usr/bin/env bash
# Hotplug latency, under a umockdev testbed (no hardware): from a receiver's add uevent to its
# first fix printed by `nmeastream --watch --format json` (its data flowing from the moment it
# appears, an epoch every 50 ms), and from its unplugging to the "went away" notice.
# Needs umockdev, gir1.2-umockdev-1.0 and python3-gi; RUNS=20 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-20}
swift build -c release --product nmeastream >/dev/null
binary=$(swift build -c release --show-bin-path)/nmeastream
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The log, one sentence per line, every line 5 ms after the one before.
grep -v '^$' Tests/NMEATests/Fixtures/ublox-multi.nmea | tr -d '\r' | sed 's/^/r 5 /; s/$/^M^J/' > "$work/log.script"
ublox="$PWD/Hardware/umockdev/ublox-m8.umockdev"
cat > "$work/steps.json" <<STEPS
[
  {"sleep": 0.3},
  {"mark": "add"},
  {"add": "$ublox"},
  {"script": ["/dev/ttyACM0", "$work/log.script"]},
  {"wait": "\"class\":\"TPV\""},
  {"sleep": 0.1},
  {"mark": "unplug"},
  {"unplug": "$ublox"},
  {"wait": "went away"}
]
STEPS
for run in $(seq "$runs"); do
  HOTPLUG_TIMES="$work/times-$run.json" umockdev-wrapper /usr/bin/python3 Tests/Drivers/hotplug.py \
    "$work/steps.json" -- "$binary" --watch --format json >/dev/null 2>&1
done
/usr/bin/python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
plug, unplug = [], []
for run in range(1, runs + 1):
    data = json.load(open(f"{work}/times-{run}.json"))
    marks, lines = data["marks"], data["lines"]
    first_fix = min(t for t, line in lines if '"class":"TPV"' in line and t > marks["add"])
    gone = min(t for t, line in lines if "went away" in line and t > marks["unplug"])
    plug.append((first_fix - marks["add"]) * 1000)
    unplug.append((gone - marks["unplug"]) * 1000)
def show(name, values):
    values.sort()
    print(f"{name}: median {statistics.median(values):.1f} ms, p90 {values[int(len(values) * 0.9) - 1]:.1f} ms, "
          f"min {values[0]:.1f} ms, max {values[-1]:.1f} ms ({len(values)} runs)")
show("add uevent to first fix", plug)
# The floor: the first epoch completes when the second one's first sentence is sent (line 14
# of the log, 5 ms apart), whatever reads it.
print("  (the data's own floor: 14 lines at 5 ms = 70 ms; the rest is adding the device, udev, discovery, opening and hunting)")
show("unplug to 'went away' notice", unplug)
PY
