#!/usr/bin/env python3
"""Writes nmeastream's manual pages (mdoc) from the command's own description of itself.

usage: packaging/manpages.py NMEASTREAM OUTPUT_DIRECTORY [DATE]

NMEASTREAM is the built command: its `--experimental-dump-help` (swift-argument-parser's
JSON of every command, argument and help text) gives each page's NAME, SYNOPSIS, DESCRIPTION,
OPTIONS, EXIT STATUS and EXAMPLES. What the command cannot say of itself is here: the files
each command uses, its environment, and the pages and guides to read next. One page for the
command, nmeastream(1), and one per subcommand, nmeastream-SUB(1) (as git names its pages, so
that each page's NAME is one word matching its file); none for `help`.

Paragraphs stay paragraphs, an example stays on one line (`.Dl`: never filled, never
hyphenated), and a URL or a path is never hyphenated across lines (`.Lk`, `.Pa`, and
hyphenation off).
"""
import json
import re
import subprocess
import sys
import time

# Where each command's long text is, installed by the package (the guides under Documentation/).
GUIDES = {
    "nmeastream": ["commands.md"],
    "read": ["commands.md", "several-receivers.md", "rtk.md"],
    "replay": ["commands.md"],
    "serve": ["serving.md", "several-receivers.md", "time-service.md", "rtk.md"],
    "publish": ["fleets.md"],
    "subscribe": ["fleets.md"],
    "demo": ["commands.md"],
    "simulate": ["commands.md"],
    "list": ["commands.md"],
    "udev-rules": ["commands.md"],
    "ntrip": ["rtk.md"],
}

# The files a command reads or writes beyond those named on its command line.
FILES = {
    "serve": [
        ("/etc/default/nmeastream", "the options the systemd unit starts serve with (NMEASTREAM_OPTIONS)"),
        ("/usr/lib/systemd/system/nmeastream.socket", "the listening sockets systemd hands to serve"),
        ("/usr/lib/systemd/system/nmeastream.service", "the unit that runs serve"),
        ("/usr/share/doc/nmeastream/examples/time-service.conf",
         "the drop-in that runs the unit as root, which --chrony and --ntp-shm need "
         "(installed as /etc/systemd/system/nmeastream.service.d/time-service.conf)"),
        ("/run/chrony.clk.DEVICE.sock, /run/chrony.DEVICE.sock",
         "The SOCK sockets of chronyd for a device's serial time and its pulse (--chrony; --chrony-dir moves them)"),
        ("/usr/lib/udev/rules.d/60-nmeastream.rules", "the udev rules that give the service's group access to known receivers"),
    ],
    "read": [("/dev/serial/by-id/", "stable names of the serial devices, worth naming a receiver by")],
    "list": [("/dev/serial/by-id/", "stable names of the serial devices")],
    "udev-rules": [("/usr/lib/udev/rules.d/60-nmeastream.rules", "the rules, as the package installs them"),
                   ("/etc/udev/rules.d/", "where rules of one's own go")],
    "publish": [("DIRECTORY/queue.sqlite", "the queue of messages waiting for the broker, with --queue DIRECTORY")],
}

ENVIRONMENT = {
    "serve": [("NMEASTREAM_OPTIONS", "in /etc/default/nmeastream: the arguments the systemd unit gives serve"),
              ("LISTEN_FDS, LISTEN_PID", "the sockets systemd hands over (socket activation); --listen is then ignored")],
    "publish": [("the variable named by --password-env", "the broker's password, kept off the command line")],
    "subscribe": [("the variable named by --password-env", "the broker's password, kept off the command line")],
}

ROOT_DESCRIPTION = (
    "nmeastream decodes what GPS receivers say (NMEA 0183, and u-blox UBX) into fixes. It reads "
    "receivers on serial ports and over the network, and recorded logs; serves them to gpsd's "
    "clients and to a live web page; publishes them over MQTT; makes them reference clocks for "
    "chrony and ntpd; and writes RTK corrections to them. Given no command, or a device, it "
    "runs nmeastream read.")

SEE_ALSO_PEERS = {
    "nmeastream": [("gpsd", 8), ("cgps", 1), ("gpspipe", 1)],
    "read": [("gpsd", 8), ("gpspipe", 1)],
    "replay": [("gpsdecode", 1)],
    "serve": [("gpsd", 8), ("cgps", 1), ("gpspipe", 1), ("gpsmon", 1), ("chronyd", 8), ("chrony.conf", 5), ("ntpd", 8),
              ("systemd.socket", 5)],
    "publish": [("mosquitto", 8), ("mosquitto_sub", 1)],
    "subscribe": [("mosquitto", 8), ("mosquitto_pub", 1)],
    "simulate": [("gpsd", 8), ("pty", 7)],
    "demo": [],
    "list": [("udevadm", 8)],
    "udev-rules": [("udev", 7), ("udevadm", 8)],
    "ntrip": [("str2str", 1)],
}


def escape(text):
    """Text for a line of mdoc: backslashes doubled, a leading dot or quote made literal."""
    text = text.replace("\\", "\\e")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def prose(text):
    """A paragraph as mdoc lines: one sentence a line (mdoc's rule, and where it puts the
    space after a full stop), URLs and paths kept whole."""
    lines = []
    sentences = re.split(r"(?<=[.;:])\s+(?=[A-Z(`])", " ".join(text.split()))
    for sentence in sentences:
        # \% before a word: never hyphenated (mdoc turns hyphenation on again in its lists).
        words = escape(sentence.replace("`", "")).split(" ")
        lines.append(" ".join(word if word.startswith("\\") or not word else "\\%" + word for word in words))
    return lines


def split_discussion(discussion):
    """The discussion's paragraphs, its exit codes, and its examples."""
    paragraphs, exits, examples = [], None, []
    blocks = discussion.split("\n\n")
    for block in blocks:
        stripped = block.strip()
        if stripped.startswith("Exit codes:"):
            exits = stripped[len("Exit codes:"):].strip()
        elif stripped.startswith("Examples:"):
            examples = [line.strip() for line in stripped.split("\n")[1:] if line.strip()]
        elif stripped:
            paragraphs.append(stripped)
    return paragraphs, exits, examples


def option_head(argument):
    """The `.It` line of an option or flag."""
    names = argument.get("names") or []
    parts = []
    for name in names:
        flag = ("Fl Fl " if name["kind"] == "long" else "Fl ") + name["name"]
        if argument["kind"] == "option":
            flag += " Ar " + argument.get("valueName", "value")
        parts.append(flag)
    return ".It " + " , ".join(parts) if parts else ".It Ar " + argument.get("valueName", "")


def synopsis(name, arguments):
    """The command, `[options]` when it has any (OPTIONS lists them), and its arguments."""
    lines = [".Nm " + name]
    if any(argument["kind"] in ("option", "flag") for argument in arguments):
        lines.append(".Op Ar options")
    for argument in arguments:
        if argument["kind"] == "positional":
            item = "Ar " + argument.get("valueName", "argument") + (" ..." if argument.get("isRepeating") else "")
            lines.append((".Op " if argument.get("isOptional", False) else ".") + item)
    return lines


def exit_status(exits):
    """`0 success; 64 usage error; ... 75 no fix. Sentences after.` as a list, then the rest."""
    lines = [".Bl -tag -width Ds"]
    tail = []
    for part in exits.split(";"):
        part = part.strip()
        match = re.match(r"^(\d+)\s+(.*)$", part, re.S)
        if match and not tail:
            text = match.group(2).rstrip(".")
            # What follows a code's full stop is a sentence of its own, after the list.
            if ". " in text:
                text, rest = text.split(". ", 1)
                tail.append(rest)
            lines += [".It " + match.group(1)] + prose(text[:1].upper() + text[1:] + ".")
        elif tail:
            tail.append(part)
        else:
            lines += prose(part)
    lines.append(".El")
    if tail:
        lines += [".Pp"] + prose("; ".join(tail).rstrip(".") + ".")
    return lines


def page(command, name, title, date, superName=None, subcommands=(), root_exits=None):
    full = name if superName is None else superName + " " + name
    key = "nmeastream" if superName is None else name
    page_name = "nmeastream" if superName is None else "nmeastream-" + name
    paragraphs, exits, examples = split_discussion(command.get("discussion", ""))
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    out = [".Dd " + date, ".Dt " + page_name.upper() + " 1", ".Os",
           ".Sh NAME", ".Nm " + page_name, ".Nd " + " ".join(prose(command.get("abstract", "").rstrip("."))),
           ".Sh SYNOPSIS"]
    out += synopsis(full if superName is None else '"' + full + '"', arguments)
    out.append(".Sh DESCRIPTION")
    first = True
    for paragraph in paragraphs:
        if not first:
            out.append(".Pp")
        first = False
        out += prose(paragraph)
    if subcommands:
        if not first:
            out.append(".Pp")
        out += prose(ROOT_DESCRIPTION) + [".Pp", "The commands:", ".Bl -tag -width udev-rules"]
        for sub in subcommands:
            out += [".It Xr nmeastream-" + sub["commandName"] + " 1"] + prose(sub.get("abstract", ""))
        out.append(".El")
    options = [a for a in arguments if a["kind"] in ("option", "flag")]
    positionals = [a for a in arguments if a["kind"] == "positional"]
    if options or positionals:
        out += [".Sh OPTIONS", ".Bl -tag -width Ds"]
        for argument in positionals + options:
            out.append(option_head(argument))
            text = argument.get("abstract", "")
            if argument.get("discussion"):
                text += " " + argument["discussion"]
            if argument.get("defaultValue") and "default" not in text:
                text += " Default: " + argument["defaultValue"] + "."
            out += prose(text) if text else []
        out.append(".El")
    if key in ENVIRONMENT:
        out += [".Sh ENVIRONMENT", ".Bl -tag -width Ds"]
        for variable, meaning in ENVIRONMENT[key]:
            out += [".It " + escape(variable)] + prose(meaning[:1].upper() + meaning[1:] + ".")
        out.append(".El")
    if key in FILES:
        out += [".Sh FILES", ".Bl -tag -width Ds"]
        for path, meaning in FILES[key]:
            out += [".It Pa " + path.replace(", ", " , Pa ")] + prose(meaning[:1].upper() + meaning[1:] + ".")
        out.append(".El")
    if exits:
        out += [".Sh EXIT STATUS"] + exit_status(exits)
    elif root_exits:
        out += [".Sh EXIT STATUS", "As for every command (see", ".Xr nmeastream 1 ) :"] + exit_status(root_exits)
    if examples:
        # Literal lines: an example is never filled, wrapped or hyphenated, whatever its length.
        out += [".Sh EXAMPLES", ".Bd -literal -offset 2n"]
        for example in examples:
            out.append(escape(example))
        out.append(".Ed")
    out.append(".Sh SEE ALSO")
    references = []
    if superName is not None:
        references.append(("nmeastream", 1))
    references += [("nmeastream-" + sub["commandName"], 1) for sub in subcommands]
    references += SEE_ALSO_PEERS.get(key, [])
    for index, (other, section) in enumerate(references):
        out.append(".Xr " + other + " " + str(section) + ("" if index == len(references) - 1 else " ,"))
    guides = GUIDES.get(key, [])
    if guides:
        out += [".Pp", "The guides, with the long explanations and the reasons:"]
        for guide in guides:
            out.append(".Pa /usr/share/doc/nmeastream/Documentation/" + guide + ".gz")
    return page_name, "\n".join(out) + "\n"


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    binary, directory = sys.argv[1], sys.argv[2]
    date = sys.argv[3] if len(sys.argv) > 3 else time.strftime("%B %-d, %Y")
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    root = dump["command"]
    subcommands = [sub for sub in root.get("subcommands", []) if sub["commandName"] != "help" and sub.get("shouldDisplay", True)]
    pages = [page(root, "nmeastream", "NMEASTREAM", date, subcommands=subcommands)]
    root_exits = split_discussion(root.get("discussion", ""))[1]
    pages += [page(sub, sub["commandName"], sub["commandName"].upper(), date, superName="nmeastream", root_exits=root_exits)
              for sub in subcommands]
    for name, text in pages:
        with open(f"{directory}/{name}.1", "w") as file:
            file.write(text)
        print(name)


if __name__ == "__main__":
    main()
