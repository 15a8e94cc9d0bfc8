#!/usr/bin/env bash
# Builds nmeastream_VERSION_ARCH.deb with dpkg-deb from the release binary (stripped, the Swift
# runtime and libstdc++ linked in statically): the command, its man pages and shell completions
# (generated from the command's own help), the systemd socket and service with
# /etc/default/nmeastream, the udev rules, and the README. See packaging/README.md.
#
# usage: packaging/build-deb.sh [OUTPUT_DIRECTORY]   (default: .build/deb)
# Prints the path of the package it made on its last line.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
output="${1:-$root/.build/deb}"
cd "$root"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The release binary as packaging/build-release.sh builds it: the Swift runtime and libstdc++
# linked in statically, its code laid out for `serve` (packaging/layout/README.md).
binary="$(packaging/build-release.sh | tail -n 1)"
# Man pages, nmeastream(1) and one per subcommand, nmeastream-SUB(1), from the command's own
# description of itself (packaging/manpages.py: real sections, examples never broken).
pages="$work/man"
mkdir -p "$pages"
python3 packaging/manpages.py "$binary" "$pages" \
  "$(date -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}" '+%B %-d, %Y')" >&2

# The one version (Sources/NMEA/Release.swift), as the binary reports it.
version="$("$binary" --version)"
arch="$(dpkg --print-architecture)"
name="nmeastream_${version}_${arch}"

stage="$work/$name"

install -D -m 0755 "$binary" "$stage/usr/bin/nmeastream"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/nmeastream"

# The pages, compressed as Debian keeps them.
install -d "$stage/usr/share/man/man1"
for page in "$pages"/*.1; do
  gzip -9n < "$page" > "$stage/usr/share/man/man1/$(basename "$page").gz"
done

# Shell completions, from the command itself.
install -d "$stage/usr/share/bash-completion/completions" "$stage/usr/share/zsh/vendor-completions" \
  "$stage/usr/share/fish/vendor_completions.d"
# (bash-completion sources the file: no interpreter line.)
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$stage/usr/share/bash-completion/completions/nmeastream"
"$binary" --generate-completion-script zsh > "$stage/usr/share/zsh/vendor-completions/_nmeastream"
"$binary" --generate-completion-script fish > "$stage/usr/share/fish/vendor_completions.d/nmeastream.fish"

# systemd: the project's units, with the installed path and the options file.
install -d "$stage/usr/lib/systemd/system"
install -m 0644 systemd/nmeastream.socket "$stage/usr/lib/systemd/system/nmeastream.socket"
sed -e 's|^ExecStart=.*|EnvironmentFile=-/etc/default/nmeastream\nExecStart=/usr/bin/nmeastream serve $NMEASTREAM_OPTIONS|' \
  systemd/nmeastream.service > "$stage/usr/lib/systemd/system/nmeastream.service"
chmod 0644 "$stage/usr/lib/systemd/system/nmeastream.service"
install -D -m 0644 packaging/default/nmeastream "$stage/etc/default/nmeastream"

# udev: the rules for the receivers the catalogue knows, as the command prints them.
install -d "$stage/usr/lib/udev/rules.d"
"$binary" udev-rules > "$stage/usr/lib/udev/rules.d/60-nmeastream.rules"

# Documentation: the README and its guides, the copyright (the project's, and the Swift runtime's linked in),
# and the changelog (a native package's).
doc="$stage/usr/share/doc/nmeastream"
install -d "$doc"
gzip -9n < README.md > "$doc/README.md.gz"
# The guides the README and the man pages point to.
install -d "$doc/Documentation"
for guide in Documentation/*.md; do gzip -9n < "$guide" > "$doc/$guide.gz"; done
install -m 0644 packaging/copyright "$doc/copyright"
# The drop-in a time service needs (/etc/default/nmeastream says how to install it).
install -D -m 0644 systemd/time-service.conf "$doc/examples/time-service.conf"
date="$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
printf 'nmeastream (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- nmeastream developers <nmeastream@users.noreply.github.com>  %s\n' \
  "$version" "$version" "$date" | gzip -9n > "$doc/changelog.gz"

# The shared libraries the binary links, as the packages that hold them (dpkg may know a
# library under /lib or /usr/lib, as merged /usr has it, or by its real name).
owner() {
  local library="$1" candidate
  for candidate in "$library" "$(realpath "$library")" "/usr$library" "${library#/usr}"; do
    dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1 && return 0
  done
  echo "build-deb: no package holds $library" >&2
  return 1
}
libraries="$(ldd "$stage/usr/bin/nmeastream" | awk '/=> \// { print $3 } /^\t\/.*ld-linux/ { print $1 }')"
# And the libraries it loads when a command needs them (Sources/CMosquitto, Sources/CSQLite).
for soname in libmosquitto.so.1 libsqlite3.so.0; do
  grep -qF "$soname" "$stage/usr/bin/nmeastream" || { echo "build-deb: the binary no longer loads $soname: update this list" >&2; exit 1; }
  path="$(ldconfig -p | awk -v name="$soname" '$1 == name { print $NF; exit }')"
  [ -n "$path" ] || { echo "build-deb: $soname is not installed" >&2; exit 1; }
  libraries="$libraries $path"
done
depends="$(for library in $libraries; do owner "$library"; done | sort -u | paste -sd, - | sed 's/,/, /g')"
# libc6 at the newest glibc the binary asks for: a symbol version, or packed relative
# relocations (GLIBC_ABI_DT_RELR, glibc 2.36), which an older loader refuses to start.
needs="$(readelf -V --wide "$stage/usr/bin/nmeastream")"
glibc="$( { grep -o 'GLIBC_[0-9][0-9.]*' <<<"$needs" | cut -d_ -f2
           if grep -q GLIBC_ABI_DT_RELR <<<"$needs"; then echo 2.36; fi; } | sort -uV | tail -n 1)"
[ -n "$glibc" ] && depends="$(echo "$depends" | sed -E "s/(^|, )libc6(,|$)/\1libc6 (>= $glibc)\2/")"

install -d "$stage/DEBIAN"
size="$(du -sk --exclude=DEBIAN "$stage" | cut -f1)"
cat > "$stage/DEBIAN/control" <<EOF
Package: nmeastream
Version: $version
Architecture: $arch
Maintainer: nmeastream developers <nmeastream@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Suggests: chrony, gpsd-clients
Section: utils
Priority: optional
Homepage: https://github.com/nmeastream/nmeastream
Description: GPS receivers on Linux as streams of fixes, and a gpsd-protocol server
 nmeastream finds USB GPS receivers through udev, decodes their NMEA 0183 and
 serves the fixes over gpsd's protocol to gpsd's clients (cgps, gpspipe,
 Python's gps module), to a live web page, to chronyd and to MQTT brokers. It
 also replays and converts recorded NMEA logs (gpsd JSON, GPX, CSV).
EOF
printf '/etc/default/nmeastream\n' > "$stage/DEBIAN/conffiles"
install -m 0755 packaging/postinst "$stage/DEBIAN/postinst"
install -m 0755 packaging/postrm "$stage/DEBIAN/postrm"

mkdir -p "$output"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$output/$name.deb" >&2
echo "$output/$name.deb"
