#!/usr/bin/env bash
# Rewrites the golden kernels (tests/golden/) from the current code generator; review them with
# `git diff tests/golden` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake --build "$BUILD_DIR" --target tst_golden_kernels
LIFT_UPDATE_GOLDEN=1 "$BUILD_DIR/tests/tst_golden_kernels" >/dev/null
git status --short tests/golden
