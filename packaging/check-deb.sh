#!/usr/bin/env bash
# Checks a package packaging/build-deb.sh made, as root on a Debian machine: lintian finds no
# error (and every man page's NAME matches its file), systemd-analyze verifies its units, it installs with dpkg -i, the installed command
# runs (its version is the package's; demo prints fixes), and it is purged again with nothing
# left behind. Leaves the machine as it found it.
#
# usage: packaging/check-deb.sh PACKAGE.deb
set -euo pipefail
deb="$1"
fail() { echo "check-deb: $*" >&2; exit 1; }
version="$(dpkg-deb -f "$deb" Version)"

# lintian: errors fail; warnings are listed.
lintian --tag-display-limit 0 "$deb" > "${TMPDIR:-/tmp}/lintian.$$" 2>&1 || true
cat "${TMPDIR:-/tmp}/lintian.$$"
if grep -q '^E: ' "${TMPDIR:-/tmp}/lintian.$$"; then rm -f "${TMPDIR:-/tmp}/lintian.$$"; fail "lintian found errors"; fi
# A page whose NAME does not match its file is one `whatis` and `apropos` cannot find.
if grep -q 'bad-whatis-entry' "${TMPDIR:-/tmp}/lintian.$$"; then rm -f "${TMPDIR:-/tmp}/lintian.$$"; fail "a man page's NAME is not its file's"; fi
rm -f "${TMPDIR:-/tmp}/lintian.$$"

dpkg-query -W nmeastream >/dev/null 2>&1 && fail "nmeastream is installed already: not checking over it"
dpkg -i "$deb"
trap 'dpkg --purge nmeastream >/dev/null 2>&1 || true' EXIT

# The units, as installed (their ExecStart must exist for systemd-analyze).
systemd-analyze verify /usr/lib/systemd/system/nmeastream.socket /usr/lib/systemd/system/nmeastream.service \
  || fail "systemd-analyze verify failed"
# And with the time service's drop-in installed as /etc/default/nmeastream says.
dropin=/etc/systemd/system/nmeastream.service.d
[ -f /usr/share/doc/nmeastream/examples/time-service.conf ] || fail "no time-service.conf drop-in"
[ -e "$dropin" ] && fail "$dropin exists already: not touching it"
install -D -m 0644 /usr/share/doc/nmeastream/examples/time-service.conf "$dropin/time-service.conf"
verified=0
systemd-analyze verify /usr/lib/systemd/system/nmeastream.service && verified=1
rm -rf "$dropin"
[ "$verified" = 1 ] || fail "systemd-analyze verify failed with the time-service drop-in"

[ "$(/usr/bin/nmeastream --version)" = "$version" ] || fail "/usr/bin/nmeastream --version is not $version"
fixes="$(/usr/bin/nmeastream demo --count 3 --speed 4 2>/dev/null | wc -l)"
[ "$fixes" -eq 3 ] || fail "demo printed $fixes lines, not 3"
for page in nmeastream nmeastream-serve; do
  [ -f "/usr/share/man/man1/$page.1.gz" ] || fail "no man page $page(1)"
done
[ -f /etc/default/nmeastream ] || fail "no /etc/default/nmeastream"

dpkg --purge nmeastream
trap - EXIT
for path in /usr/bin/nmeastream /etc/default/nmeastream /usr/lib/systemd/system/nmeastream.service \
            /usr/lib/udev/rules.d/60-nmeastream.rules /usr/share/doc/nmeastream; do
  [ ! -e "$path" ] || fail "$path is left after purging"
done
echo "check-deb: $deb: lintian without errors, units verified, installed, ran, purged"
