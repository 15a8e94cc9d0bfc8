#!/usr/bin/env python3
"""Compare gpsd's TPV fields, one by one, between gpsd's .chk files and nmeastream's JSON.

usage: fieldcompare.py EXPECTED.chk ACTUAL.jsonl [EXPECTED.chk ACTUAL.jsonl ...] [--json] [--verbose]

The companion of ../shared/tools/tpvcompare.py, which checks position, altitude, speed,
course and mode: this one checks every other TPV field gpsd's clients read (error estimates,
magnetic variation, climb, status, geoid separation, differential age...). Epochs are keyed
as tpvcompare keys them: by the TPV's time, the last TPV of a time being the epoch's fix.
Only epochs both outputs report are compared. For each field it counts, over all the pairs
given: the epochs where gpsd reports it ("gpsd"), where ours agrees within the tolerance
("match"), differs ("differ"), lacks it ("missing"), and where ours reports it and gpsd does
not ("extra"). Tolerances are one unit of the last decimal gpsd prints.

Prints a table, or with --json one JSON object {field: {gpsd, match, differ, missing, extra}}.
--verbose lists up to three differing epochs per field, per log.
"""
import json
import sys
from datetime import datetime, timezone

# field: tolerance (None: compared exactly)
FIELDS = {
    "status": None, "leapseconds": None,
    "ept": 0.001, "epx": 0.001, "epy": 0.001, "epv": 0.001, "eph": 0.001, "sep": 0.001,
    "eps": 0.01, "epd": 0.0001, "epc": 0.01,
    "climb": 0.001, "magvar": 0.1, "magtrack": 0.0001, "geoidSep": 0.001, "alt": 0.001,
    "dgpsAge": 0.1, "dgpsSta": None,
}
# Comparing decimal text, a value rounded either side of the last digit is still one unit.
SLACK = 1.000001


def epochs(path):
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if o.get("class") != "TPV" or "time" not in o:
                continue
            try:
                d = datetime.fromisoformat(o["time"].replace("Z", "+00:00"))
            except ValueError:
                continue
            if d.tzinfo is None:
                d = d.replace(tzinfo=timezone.utc)
            out[round(d.timestamp() * 1000)] = o
    return out


def agrees(field, want, got):
    tolerance = FIELDS[field]
    if tolerance is None:
        return want == got
    try:
        return abs(float(want) - float(got)) <= tolerance * SLACK
    except (TypeError, ValueError):
        return False


def compare(expected, actual, counts, examples, name):
    for time, want in expected.items():
        got = actual.get(time)
        if got is None:
            continue
        for field in FIELDS:
            row = counts.setdefault(field, {"gpsd": 0, "match": 0, "differ": 0, "missing": 0, "extra": 0})
            if field not in want:
                if field in got:
                    row["extra"] += 1
                continue
            row["gpsd"] += 1
            if field not in got:
                row["missing"] += 1
            elif agrees(field, want[field], got[field]):
                row["match"] += 1
            else:
                row["differ"] += 1
                shown = examples.setdefault((field, name), [])
                if len(shown) < 3:
                    shown.append((time, want[field], got[field]))


def main(argv):
    flags = {a for a in argv if a.startswith("--")}
    paths = [a for a in argv if not a.startswith("--")]
    if not paths or len(paths) % 2:
        sys.exit(__doc__.strip().splitlines()[2])
    counts, examples = {}, {}
    for chk, ours in zip(paths[0::2], paths[1::2]):
        compare(epochs(chk), epochs(ours), counts, examples, chk.rsplit("/", 1)[-1])
    if "--json" in flags:
        print(json.dumps(counts, sort_keys=True))
    else:
        print(f"{'field':<12}{'gpsd':>7}{'match':>7}{'differ':>7}{'missing':>8}{'extra':>7}")
        for field, row in counts.items():
            print(f"{field:<12}{row['gpsd']:>7}{row['match']:>7}{row['differ']:>7}{row['missing']:>8}{row['extra']:>7}")
    if "--verbose" in flags:
        for (field, name), shown in sorted(examples.items()):
            for time, want, got in shown:
                print(f"{name} {field} at {time}: gpsd {want}, ours {got}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
