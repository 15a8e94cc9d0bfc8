#!/usr/bin/env bash
# Builds the release binary as it is installed (the Debian package's, and the README's
# "without a package"): the Swift runtime and libstdc++ linked in statically, and its code laid
# out so that what `serve` runs sits together (packaging/layout/README.md).
#
# usage: packaging/build-release.sh [SWIFT BUILD ARGUMENTS...]
# Builds in .build/static (a build folder of its own: SwiftPM keeps the link of an earlier
# release build in .build without these flags) and prints the binary's path on its last line.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
layout="$root/packaging/layout"
scratch="$root/.build/static"
cd "$root"

flags=(-c release --static-swift-stdlib --scratch-path "$scratch"
       # One section per function, in every module (the dependencies too), so that the linker
       # can place each one; -ffunction-sections for the C targets.
       -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections
       # libstdc++ (which Swift's runtime uses) from its static archive: the toolchain asks for
       # -lstdc++, and this folder, searched first, answers with libstdc++.a.
       -Xswiftc -L -Xswiftc "$layout/static-libstdc++"
       # Every link by lld (the command's is, Package.swift), since these flags reach the
       # build's tools too (EmbedFiles).
       -Xswiftc -use-ld=lld
       # The functions `serve` runs first, in the order of a profile; then the runtime's helpers.
       -Xlinker "--symbol-ordering-file=$layout/hot-functions.txt" -Xlinker --no-warn-symbol-ordering
       -Xlinker -T -Xlinker "$layout/text.ld")
# SwiftPM rebuilds nothing when only flags change, nor relinks when a file the linker reads
# changes: a folder built with other flags starts again, and the link is always made anew.
stamp="$scratch/build-release.flags"
if [ -d "$scratch" ] && ! printf '%s\n' "${flags[@]}" | cmp -s - "$stamp"; then
  rm -rf "$scratch"
fi
mkdir -p "$scratch"
printf '%s\n' "${flags[@]}" > "$stamp"
binary="$(swift build "${flags[@]}" --show-bin-path)/nmeastream"
rm -f "$binary"
swift build "${flags[@]}" --product nmeastream "$@" >&2

if ldd "$binary" | grep -Eq 'libswiftCore|libstdc\+\+'; then
  echo "build-release: $binary links the Swift runtime or libstdc++ dynamically" >&2
  exit 1
fi
# The profile names functions; a rename leaves its function where the linker puts it by
# default. Say when the profile has gone stale (packaging/layout/profile.sh makes a new one).
found="$(nm --defined-only "$binary" | awk '{ print $3 }' | sort -u \
  | comm -12 - <(sort -u "$layout/hot-functions.txt") | wc -l)"
total="$(sort -u "$layout/hot-functions.txt" | wc -l)"
echo "build-release: $found of the profile's $total functions found" >&2
if [ $((found * 10)) -lt $((total * 9)) ]; then
  echo "build-release: warning: the layout profile is stale; run packaging/layout/profile.sh" >&2
fi
echo "$binary"
