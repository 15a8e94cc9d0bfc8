#!/usr/bin/env python3
"""Resident memory of `nmeastream serve` and of gpsd, side by side, serving one receiver to one
client: each server reads a pseudo-terminal into which an epoch (GGA, GSA, two GSV, RMC) is
written every 100 ms, one client watches its JSON, and after SECONDS the server's memory is
read from /proc: VmRSS and VmHWM, anonymous and file-backed, and where it lies, by mapping.

usage: [ROUNDS=N] [BASELINE=/path/to/an/older/nmeastream] Benchmarks/serve-memory.py [SECONDS]
       (defaults: 1 round, 5 seconds; NMEASTREAM=/path/to/nmeastream, default
       .build/static/release/nmeastream, which packaging/build-release.sh builds for installing)
The servers take turns; the table gives each figure's median over the rounds, and nmeastream's
resident set as a ratio to gpsd's (and to the baseline's, with BASELINE).
"""
import os, re, socket, statistics, subprocess, sys, tempfile, time

from serve_scenario import Receiver, free_port

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
rounds = int(os.environ.get("ROUNDS", "1"))
nmeastream = os.environ.get("NMEASTREAM", os.path.join(root, ".build/static/release/nmeastream"))
baseline = os.environ.get("BASELINE")
gpsd = "/usr/sbin/gpsd"
for path, what in [(nmeastream, "nmeastream (build it first: packaging/build-release.sh)"), (gpsd, "gpsd (Debian's gpsd)")]:
    if not os.access(path, os.X_OK):
        sys.exit(f"serve-memory: no {what} at {path}")
if baseline and not os.access(baseline, os.X_OK):
    sys.exit(f"serve-memory: no baseline at {baseline}")


def status(pid):
    values = {}
    for line in open(f"/proc/{pid}/status"):
        name, _, value = line.partition(":")
        if value.strip().endswith("kB"):
            values[name] = int(value.split()[0])
    return values


def mappings(pid):
    """Resident kB by mapped file (or [anon], [heap], [stack]) and permissions."""
    resident = {}
    current = None
    for line in open(f"/proc/{pid}/smaps"):
        header = re.match(r"^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$", line)
        if header:
            current = (os.path.basename(header.group(2)) or "[anon]", header.group(1))
            continue
        rss = re.match(r"^Rss:\s+(\d+) kB", line)
        if rss and current:
            resident[current] = resident.get(current, 0) + int(rss.group(1))
    return resident


def measure(server, binary):
    with Receiver() as device:
        return measure_on(server, binary, device)


def measure_on(server, binary, device):
    port = free_port()
    with tempfile.TemporaryDirectory() as work:
        if server == "gpsd":
            # -b: read-only; -n: the device open from the start, as in server-latency.sh.
            command = [gpsd, "-b", "-N", "-n", "-S", str(port), "-F", os.path.join(work, "gpsd.sock"), device]
        else:
            command = [binary, "serve", device, "--speed", "9600", "--listen", f"127.0.0.1:{port}"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 10
            while True:
                try:
                    client = socket.create_connection(("127.0.0.1", port))
                    break
                except OSError:
                    if time.time() > deadline or process.poll() is not None:
                        raise SystemExit(f"serve-memory: {server} did not listen")
                    time.sleep(0.05)
            client.sendall(b'?WATCH={"enable":true,"json":true}\n')
            client.settimeout(0.2)
            received = b""
            end = time.time() + seconds
            while time.time() < end:
                try:
                    received += client.recv(65536)
                except socket.timeout:
                    pass
            if b'"class":"TPV"' not in received:
                raise SystemExit(f"serve-memory: {server} sent no TPV")
            values, where = status(process.pid), mappings(process.pid)
            client.close()
        finally:
            process.terminate()
            process.wait()
    return {"rss": values["VmRSS"], "hwm": values["VmHWM"], "anon": values.get("RssAnon", 0),
            "file": values.get("RssFile", 0), "where": where}


servers = [("gpsd", gpsd), ("nmeastream", nmeastream)] + ([("baseline", baseline)] if baseline else [])
runs = {name: [] for name, _ in servers}
for _ in range(rounds):
    for name, binary in servers:
        runs[name].append(measure(name, binary))

print(f"{'server':<12}{'rounds':>7}{'VmRSS kB':>10}{'VmHWM kB':>10}{'anon kB':>9}{'file kB':>9}")
medians = {}
for name, _ in servers:
    group = runs[name]
    medians[name] = {key: statistics.median(run[key] for run in group) for key in ("rss", "hwm", "anon", "file")}
    m = medians[name]
    print(f"{name:<12}{len(group):>7}{m['rss']:>10.0f}{m['hwm']:>10.0f}{m['anon']:>9.0f}{m['file']:>9.0f}")
print()
print(f"nmeastream / gpsd, resident: {medians['nmeastream']['rss'] / medians['gpsd']['rss']:.2f}")
if baseline:
    ratios = [new["rss"] / old["rss"] for new, old in zip(runs["nmeastream"], runs["baseline"])]
    print(f"nmeastream / baseline, resident (median of the rounds' ratios): {statistics.median(ratios):.3f}")
for name, _ in servers:
    print(f"\n{name}, where it is resident (last round, kB, the largest first):")
    where = runs[name][-1]["where"]
    for (mapped, permissions), kilobytes in sorted(where.items(), key=lambda item: -item[1])[:10]:
        print(f"  {kilobytes:>7}  {mapped} {permissions}")
