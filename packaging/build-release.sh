#!/usr/bin/env bash
# Builds the release binary as it is installed (the Debian package's, and the README's
# "without a package"): the Swift runtime and libstdc++ linked in statically, and its code laid
# out so that what `serve` runs sits together (packaging/layout/README.md). The layout comes
# from a profile this build runs: linked once with a map, `serve` run under callgrind
# (packaging/layout/profile.py), then linked again with the functions it ran placed first. No
# profile is kept in the repository, so none can go stale. Without valgrind the build says so
# and links in the default order (a larger resident set while serving).
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
       # The runtime's small helpers together (the profile's functions come first: below).
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
order="$scratch/layout/hot-functions.txt"
rm -f "$binary" "$order"
if command -v valgrind > /dev/null; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # The first link, with a map of where each function went (mangled names, as the profile has them).
  swift build "${flags[@]}" --product nmeastream -Xlinker "-Map=$work/link.map" -Xlinker --no-demangle "$@" >&2
  mkdir -p "$(dirname "$order")"
  python3 "$layout/profile.py" "$binary" "$work/link.map" "$order" >&2
  # The second: the functions `serve` ran first in `.text`, in the order they first ran.
  rm -f "$binary"
  swift build "${flags[@]}" --product nmeastream -Xlinker "--symbol-ordering-file=$order" \
    -Xlinker --no-warn-symbol-ordering "$@" >&2
else
  echo "build-release: warning: no valgrind (Debian's valgrind), so no profile of serve: the code keeps the linker's default order" >&2
  swift build "${flags[@]}" --product nmeastream "$@" >&2
fi

if ldd "$binary" | grep -Eq 'libswiftCore|libstdc\+\+'; then
  echo "build-release: $binary links the Swift runtime or libstdc++ dynamically" >&2
  exit 1
fi
echo "$binary"
