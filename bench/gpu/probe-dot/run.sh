#!/usr/bin/env bash
# Times the probe-dot programs (README.md) at 512, 1024 and 2048 work-groups of 256 work-items,
# N = 2^26; CHECK=1 validates each at a small size against the interpreter instead.
# Environment: DEVICE (default 0), LIFTC (default build/app/liftc), REPEAT (default 20).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
liftc=${LIFTC:-$root/build/app/liftc}
device=${DEVICE:-0}
for f in dot asum dot_float4 asum_float4; do
  if [[ -n ${CHECK:-} ]]; then
    echo "== $f.lift --size M=1,V=2 (validated)"
    "$liftc" run "$here/$f.lift" --device "$device" --size M=1,V=2 --repeat 1 || echo "$f: FAILED"
    continue
  fi
  scale=1
  [[ $f == *float4 ]] && scale=4
  for groups in 512 1024 2048; do
    m=$((groups / 256)) v=$((67108864 / (groups * 256 * scale)))
    echo "== $f.lift: $groups work-groups (--size M=$m,V=$v)"
    "$liftc" run "$here/$f.lift" --device "$device" --reference none --repeat "${REPEAT:-20}" --size "M=$m,V=$v" ||
      echo "$f: FAILED"
  done
done
