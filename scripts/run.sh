#!/usr/bin/env bash
# Installs dependencies, builds and launches Lift Studio on its default (matmul on the first
# OpenCL device). Without a display it runs under xvfb-run. Until the app exists: liftc on a demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
if [ -x "$BUILD_DIR/app/lift-studio" ]; then
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1600x1000x24" "$BUILD_DIR/app/lift-studio" "$@"
  fi
  exec "$BUILD_DIR/app/lift-studio" "$@"
fi
echo "== liftc simplify: a tiled matmul index =="
"$BUILD_DIR/app/liftc" simplify "((wg_id*16 + l_id) / 16) * 16 + (wg_id*16 + l_id) % 16" --range wg_id=0:N/16 --range l_id=0:16
