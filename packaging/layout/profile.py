#!/usr/bin/env python3
"""Profiles `nmeastream serve` under callgrind and writes the order in which the linker should
place the functions it ran (packaging/layout/README.md).

usage: profile.py BINARY LINK_MAP OUTPUT
  BINARY    the release binary as packaging/build-release.sh built it (with its symbols)
  LINK_MAP  lld's map of that link (-Map, with --no-demangle)
  OUTPUT    the symbol ordering file to write (build-release.sh: .build/static/layout/hot-functions.txt)

The scenario is the one Benchmarks/serve-memory.py measures: `serve` reading a pseudo-terminal
into which a receiver's epoch (GGA, GSA, two GSV, RMC) is written every 100 ms, one client
watching its JSON (and asking for the devices and a poll). Valgrind cannot read the binary's
debug information, so it runs a copy without it.
"""
import bisect, os, shutil, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Benchmarks"))
from serve_scenario import Receiver, free_port  # noqa: E402

binary, link_map, output = sys.argv[1:4]
# An input section larger than this, not split per function (code built without
# -function-sections: Swift's own runtime libraries), moves as a whole: naming one of its
# functions would drag all of it into the hot region.
WHOLE_SECTION_LIMIT = 4096
TEXT_SECTIONS = (".text", ".text.runtime")


def profile(work):
    """Runs the scenario under callgrind; returns the path of its output."""
    bare = os.path.join(work, "nmeastream")
    shutil.copy(binary, bare)
    subprocess.run(["strip", "-g", bare], check=True)
    out = os.path.join(work, "callgrind.out")
    port = free_port()
    with Receiver() as device:
        command = ["valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=yes", "--compress-pos=no",
                   "--compress-strings=no", f"--callgrind-out-file={out}",
                   bare, "serve", device, "--speed", "9600", "--listen", f"127.0.0.1:{port}"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 120
            while True:
                try:
                    client = socket.create_connection(("127.0.0.1", port))
                    break
                except OSError:
                    if time.time() > deadline or server.poll() is not None:
                        sys.exit("profile: serve did not listen under valgrind")
                    time.sleep(0.2)
            client.sendall(b'?WATCH={"enable":true,"json":true}\n')
            client.settimeout(0.5)
            received = b""
            end = time.time() + 10
            asked = False
            while time.time() < end:
                if not asked and time.time() > end - 5:
                    client.sendall(b"?DEVICES;\n?POLL;\n")
                    asked = True
                try:
                    received += client.recv(65536)
                except socket.timeout:
                    pass
            if b'"class":"TPV"' not in received:
                sys.exit("profile: serve sent no TPV under valgrind")
            client.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return out


def text_layout():
    """The input sections of the code's output sections, and for each function name the input
    sections holding a function of that name (local names repeat across files)."""
    sections, names, symbols = [], {}, []
    output_section, current = None, None
    for line in open(link_map):
        fields = line.split()
        if len(fields) == 5 and ":(" not in line and fields[4].startswith("."):
            output_section, current = fields[4], None
            continue
        if output_section not in TEXT_SECTIONS:
            continue
        if len(fields) >= 5 and ":(" in fields[-1]:
            where = fields[-1]
            name = where[where.rindex(":(") + 2:-1]
            size = int(fields[2], 16)
            movable = name.startswith(".text.") or size <= WHOLE_SECTION_LIMIT
            current = (int(fields[0], 16), size, where, movable)
            sections.append(current)
            # The map lists global symbols only; a function of its own section is also named
            # by the section (a C++ function of the runtime, a static C function).
            function = name[len(".text."):]
            if name.startswith(".text.") and not function.startswith((".L", "startup", "unlikely", "hot", "exit")):
                names.setdefault(function, []).append(current)
                symbols.append((current[0], function))
        elif len(fields) == 5 and current:
            names.setdefault(fields[4], []).append(current)
            symbols.append((int(fields[0], 16), fields[4]))
    return sorted(sections), names, sorted(set(symbols))


def load_biases(callgrind_out):
    """For each object of the profile that is this binary, what to subtract from its
    addresses. Callgrind gives the addresses of an object it knows as the binary's own, and
    those of code it could not place (the binary's .text.runtime, which its debug-information
    reader does not take as code) as they were in memory: each object's is the difference, in
    whole pages, that most of its named functions show."""
    addresses = {}
    for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tT":
            addresses[fields[2]] = int(fields[0], 16)
    votes, obj, function = {}, None, None
    for line in open(callgrind_out):
        if line.startswith("ob="):
            obj = line[3:].strip()
        elif line.startswith("fn="):
            function = line[3:].strip()
        elif line.startswith("0x") and function in addresses:
            # The instruction lies within its function's first page, mostly.
            page = (int(line.split()[0], 16) - addresses[function]) & ~0xFFF
            counts = votes.setdefault(obj, {})
            counts[page] = counts.get(page, 0) + 1
            function = None
    biases = {}
    for obj, counts in votes.items():
        page, count = max(counts.items(), key=lambda item: item[1])
        if count >= 5 and count * 10 >= sum(counts.values()) * 6:
            biases[obj] = page
    if not biases:
        sys.exit("profile: no function of the binary in the profile")
    return biases


def order(callgrind_out):
    sections, names, symbols = text_layout()
    starts = [section[0] for section in sections]
    symbol_starts = [symbol[0] for symbol in symbols]
    biases = load_biases(callgrind_out)
    hot, seen, ran = set(), set(), []
    obj = None
    for line in open(callgrind_out):
        if line.startswith("ob="):
            obj = line[3:].strip()
        if not line.startswith("0x") or obj not in biases:
            continue
        address = int(line.split()[0], 16) - biases[obj]
        i = bisect.bisect_right(starts, address) - 1
        if i < 0 or address >= sections[i][0] + max(sections[i][1], 1):
            continue
        hot.add(sections[i][2])
        j = bisect.bisect_right(symbol_starts, address) - 1
        if j >= 0 and symbols[j][0] >= sections[i][0]:
            name = symbols[j][1]
            if name not in seen:
                seen.add(name)
                ran.append(name)
    # First the functions that move alone; then those that also name a whole section that
    # runs anyway (it then follows the hot region instead of staying where it was); never one
    # that would drag in a whole section that does not run.
    first, last = [], []
    for name in ran:
        holders = names.get(name, [])
        if all(movable for _, _, _, movable in holders):
            first.append(name)
        elif all(movable or where in hot for _, _, where, movable in holders):
            last.append(name)
    return first + last


with tempfile.TemporaryDirectory() as work:
    functions = order(profile(work))
with open(output, "w") as file:
    file.write("\n".join(functions) + "\n")
print(f"profile: {len(functions)} functions in {output}")
