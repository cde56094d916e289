#!/usr/bin/env bash
# Makes the README's screenshots with the application itself (lift-studio --screenshot), headless:
# QT_QPA_PLATFORM=offscreen unless a display is set (or run it under xvfb-run). The search and the
# runs use the PoCL CPU device ("Portable"), as the README's captions say.
set -euo pipefail
cd "$(dirname "$0")/../.."
studio=${LIFT_STUDIO:-build/app/lift-studio}
out=docs/screenshots
[ -n "${DISPLAY:-}" ] || export QT_QPA_PLATFORM=offscreen
store=$(mktemp -d)/search.sqlite

"$studio" --example matmul --select map --screenshot "$out/rewrite-matmul.png"
"$studio" --example matmul --apply map-to-glb@0:dim=1 --apply map-to-glb@0.0.0.0:dim=0 \
  --apply reduce-map-fusion@0.0.0.0.0.0.0 --apply reduce-to-seq@0.0.0.0.0.0.0 \
  --select reduceSeq --device Portable --run --screenshot "$out/first-derivation.png"
"$studio" --example lowlevel/dot --select mapLcl --device Portable --run --screenshot "$out/kernel-and-run.png"
"$studio" --example matmul --size M=64,N=64,K=64 --device Portable --search 60 --load-best \
  --store "$store" --screenshot "$out/search.png"
