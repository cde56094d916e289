#!/usr/bin/env bash
# Configures and builds everything into build/ (Ninja, ccache). Extra args go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
BUILD_DIR=${BUILD_DIR:-build}
# Paths relative to the checkout, so that clones share ccache's cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
# Debug info names the build directory; do not let that split the cache between clones.
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
fi
cmake --build "$BUILD_DIR" -j "$(nproc)"
