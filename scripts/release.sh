#!/usr/bin/env bash
# Builds the release binaries into dist/: Linux x86_64 and Windows x86_64 (mingw), both
# named with the version, the commit and the bench signature, which --version, UCI
# `id name` and XBoard `myname` show too (`Ironwood 0.1.0 (commit 1a2b3c4, bench 4574183)`).
#
#   scripts/release.sh            # from a clean checkout (a dirty tree is refused)
#   scripts/release.sh --dirty    # allow local changes (the commit gets a -dirty mark)
#
# Needs the Windows target and a mingw linker:
#   rustup target add x86_64-pc-windows-gnu
#   apt-get install gcc-mingw-w64-x86-64
# The bench signature is measured on the Linux build; the search is the same code on both
# (the Windows binary under Wine gives the same count, see docs/testing.md "The Windows build under Wine").
set -euo pipefail
cd "$(dirname "$0")/.."

dirty_ok=false
[ "${1:-}" = "--dirty" ] && dirty_ok=true
mark=""
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    if ! $dirty_ok; then
        echo "release.sh: the working tree has changes; commit them or pass --dirty" >&2
        exit 1
    fi
    mark="-dirty"
fi
if ! rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu; then
    echo "release.sh: the Windows target is missing: rustup target add x86_64-pc-windows-gnu" >&2
    exit 1
fi
if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "release.sh: the mingw linker is missing: apt-get install gcc-mingw-w64-x86-64" >&2
    exit 1
fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
commit=$(git rev-parse --short=7 HEAD)$mark
target_dir=${CARGO_TARGET_DIR:-target}

# 1. A plain build measures the bench signature (the version text cannot change it).
unset IRONWOOD_BUILD
cargo build --release --quiet
bench=$("$target_dir/release/ironwood" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
case $bench in
    '' | *[!0-9]*) echo "release.sh: no bench signature from the build ($bench)" >&2; exit 1 ;;
esac

# 2. Both binaries with the build named in their version.
export IRONWOOD_BUILD="commit $commit, bench $bench"
cargo build --release --quiet
cargo build --release --quiet --target x86_64-pc-windows-gnu

linux="$target_dir/release/ironwood"
shown=$("$linux" --version)
if [ "$shown" != "ironwood $version ($IRONWOOD_BUILD)" ]; then
    echo "release.sh: --version says '$shown'" >&2
    exit 1
fi
again=$("$linux" bench 2>/dev/null | tail -n 1 | awk '{print $1}')
if [ "$again" != "$bench" ]; then
    echo "release.sh: bench $again after the rebuild, $bench before" >&2
    exit 1
fi

mkdir -p dist
base="dist/ironwood-$version-$commit"
cp "$linux" "$base-linux-x86_64"
cp "$target_dir/x86_64-pc-windows-gnu/release/ironwood.exe" "$base-windows-x86_64.exe"
echo "$shown"
ls -l "$base-linux-x86_64" "$base-windows-x86_64.exe"
