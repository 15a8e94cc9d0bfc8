#!/usr/bin/env python3
"""Drives a umockdev testbed for the hotplug tests; run it under umockdev-wrapper.

    umockdev-wrapper python3 hotplug.py STEPS.json -- COMMAND...

Starts COMMAND (which inherits the testbed), then performs each step of STEPS.json in turn:
  {"wait": "TEXT", "count": N, "timeout": S}
                                       wait until COMMAND's output or errors hold TEXT N times
                                       (count defaults to 1, the timeout to 10 s)
  {"add": "FILE.umockdev"}             add the devices of FILE, parents first, each announced
  {"script": ["/dev/ttyACM0", "FILE"]} have the device send FILE's lines (a umockdev script)
  {"unplug": "FILE.umockdev"}          remove the devices of FILE, children first, each announced
  {"sleep": SECONDS}
  {"mark": "NAME"}                     note the time (see HOTPLUG_TIMES)
  {"connect": "REGEX", "send": "TEXT"} connect to 127.0.0.1 on the port REGEX's first group
                                       finds in COMMAND's errors, send TEXT; every line the
                                       connection receives joins the output as "client: LINE"
  {"send": "TEXT"}                     send TEXT on the last connection
  {"gpspipe": "REGEX"}                 run `gpspipe -w 127.0.0.1:PORT` (PORT as for connect); its
                                       lines join the output as "gpspipe: LINE"
then stops COMMAND with SIGINT and copies its standard output to ours, its errors to stderr.
Waits time out after 10 s unless they say; a time-out exits 2. With HOTPLUG_TIMES=FILE in the environment,
FILE receives the marks and the arrival time of every output line (monotonic seconds), as JSON.
"""
import json
import os
import re
import socket
import signal
import subprocess
import sys
import threading
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

steps_file = sys.argv[1]
command = sys.argv[sys.argv.index("--") + 1:]
steps = json.load(open(steps_file))

testbed = UMockdev.Testbed.new()
child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
output = []
lock = threading.Lock()


arrivals = []
marks = {}


def pump(stream, sink, prefix=b""):
    for line in iter(stream.readline, b""):
        now = time.monotonic()
        if prefix:
            line = prefix + line.replace(b"\r\n", b"\n")
        with lock:
            sink.append(line)
            arrivals.append([now, line.decode(errors="replace")])


errors = []
threading.Thread(target=pump, args=(child.stdout, output), daemon=True).start()
threading.Thread(target=pump, args=(child.stderr, errors), daemon=True).start()


def connect(pattern, text):
    with lock:
        found = re.search(pattern.encode(), b"".join(errors))
    if found is None:
        return False
    connection = socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=10)
    connection.settimeout(None)
    connection.sendall(text.encode())
    clients.append(connection)
    threading.Thread(target=pump, args=(connection.makefile("rb"), output, b"client: "), daemon=True).start()
    return True


clients = []
pipes = []


def seen(text, count):
    with lock:
        return sum(line.count(text.encode()) for line in output + errors) >= count


status = 0
for step in steps:
    if "wait" in step:
        deadline = time.time() + step.get("timeout", 10)
        while not seen(step["wait"], step.get("count", 1)):
            if time.time() > deadline or child.poll() is not None:
                sys.stderr.write(f"hotplug.py: timed out waiting for {step['wait']!r}\n")
                status = 2
                break
            time.sleep(0.01)
        if status:
            break
    elif "add" in step:
        # A description lists a device before its parents; the kernel adds parents first, and
        # each addition is announced: add the blocks in reverse.
        blocks = [block for block in open(step["add"]).read().split("\n\n") if block.strip()]
        for block in reversed(blocks):
            testbed.add_from_string(block.strip() + "\n")
    elif "script" in step:
        device, script = step["script"]
        testbed.load_script(device, script)
    elif "unplug" in step:
        for line in open(step["unplug"]):
            if line.startswith("P: "):
                path = "/sys" + line[3:].strip()
                testbed.uevent(path, "remove")
                testbed.remove_device(path)
    elif "connect" in step:
        if not connect(step["connect"], step.get("send", "")):
            sys.stderr.write(f"hotplug.py: no port in the errors for {step['connect']!r}\n")
            status = 2
            break
    elif "send" in step:
        clients[-1].sendall(step["send"].encode())
    elif "gpspipe" in step:
        with lock:
            found = re.search(step["gpspipe"].encode(), b"".join(errors))
        if found is None:
            sys.stderr.write(f"hotplug.py: no port in the errors for {step['gpspipe']!r}\n")
            status = 2
            break
        pipe = subprocess.Popen(["gpspipe", "-w", "127.0.0.1:" + found.group(1).decode()], stdout=subprocess.PIPE)
        pipes.append(pipe)
        threading.Thread(target=pump, args=(pipe.stdout, output, b"gpspipe: "), daemon=True).start()
    elif "sleep" in step:
        time.sleep(step["sleep"])
    elif "mark" in step:
        marks[step["mark"]] = time.monotonic()

for pipe in pipes:
    pipe.kill()
    pipe.wait(timeout=10)
child.send_signal(signal.SIGINT)
try:
    child.wait(timeout=10)
except subprocess.TimeoutExpired:
    child.kill()
    status = 2
time.sleep(0.1)
if os.environ.get("HOTPLUG_TIMES"):
    with lock:
        json.dump({"marks": marks, "lines": arrivals}, open(os.environ["HOTPLUG_TIMES"], "w"))
with lock:
    sys.stdout.buffer.write(b"".join(output))
    sys.stderr.buffer.write(b"".join(errors))
sys.exit(status or child.returncode)
