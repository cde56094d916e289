#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh "$@"
export QT_QPA_PLATFORM=offscreen
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$PWD/${BUILD_DIR:-build}/pocl-cache}
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
