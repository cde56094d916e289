#!/usr/bin/env bash
# Hand-written OpenCL-level shapes of the bandwidth-bound reductions (dot, asum, gemv), to learn
# what the code generator can reach before the explorer is asked to find it: a work-group per
# chunk (or matrix row), its work-items reading the chunk with a stride of the work-group size
# (reorderStride: neighbouring work-items read neighbouring addresses), scalar or float4, each
# summing privately, then a tree in local memory (iterate). Sweeps the work-group size L, the
# values per work-item R and the vector width W; prints one line per shape from `liftc run`.
#
# Usage: bench/gpu/reduction-shapes.sh [DEVICE] [cpu]   (cpu: small sizes for PoCL)
# Environment: LIFTC (default .gpu-ex/liftc, else build-ex/app/liftc), REPEAT (default 10).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
device=${1:-nvidia}
small=${2:-}
pack=$root/.gpu-ex
liftc=${LIFTC:-$pack/liftc}
[[ -x $liftc ]] || liftc=$root/build-ex/app/liftc
source "$root/bench/gpu/device-env.sh"
work=$(mktemp -d)
log2() { local n=$1 k=0; while ((n > 1)); do n=$((n / 2)); k=$((k + 1)); done; echo $k; }
elems=$((1 << 26)) rows=16384 cols=16384
[[ $small == cpu ]] && elems=$((1 << 22)) rows=1024 cols=4096

# shape KIND L R W: writes $work/KIND-L-R-W.lift and prints its size argument
write() {
  local kind=$1 L=$2 R=$3 W=$4 it vec acc ty
  it=$(log2 "$L")
  local f=$work/$kind-$L-$R-$W.lift
  if ((W == 1)); then ty=float; else ty=float$W; fi
  local tree="iterate$it(join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(add, 0.0f)) o split2)"
  local head="userfun add(float x, float y) -> float { return x + y; }"
  # The partial sums of chunks of L x R elements (of $vec), each reduced by a work-group with OP.
  chunks() {
    printf '  join o mapWrg0(join o toGlobal(mapLcl0(mapSeq(id))) o split1 o %s o\n' "$tree"
    printf '    join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(%s, 0.0f)) o split%s o reorderStride(%s)\n' "$1" "$R" "$L"
    printf '  ) o split%s $ %s\n' "$((L * R))" "$vec"
  }
  case $kind in
    dot)
      if ((W == 1)); then acc="return acc + x * y;"; vec="zip(x, y)"; else acc="return acc + dot(x, y);"; vec="zip(asVector$W(x), asVector$W(y))"; fi
      cat >"$f" <<EOF
size N = 64;
$head
userfun madd(float acc, $ty x, $ty y) -> float { $acc }
fun partialDot(x: [float]N*$((L * R * W)), y: [float]N*$((L * R * W))) =
$(chunks madd)
EOF
      echo "N=$((elems / (L * R * W)))" ;;
    asum)
      if ((W == 1)); then acc="return acc + fabs(x);"; vec="x"; else acc="$ty a = fabs(x); return acc + dot(a, ($ty)(1.0f));"; vec="asVector$W(x)"; fi
      cat >"$f" <<EOF
size N = 64;
$head
userfun absAdd(float acc, $ty x) -> float { $acc }
fun partialAsum(x: [float]N*$((L * R * W))) =
$(chunks absAdd)
EOF
      echo "N=$((elems / (L * R * W)))" ;;
    gemv)
      if ((W == 1)); then acc="return acc + x * y;"; vec="zip(get(0, rowAndY), x)"; else acc="return acc + dot(x, y);"; vec="zip(asVector$W(get(0, rowAndY)), asVector$W(x))"; fi
      cat >"$f" <<EOF
size M = 64, K = 1;
$head
userfun madd(float acc, $ty x, $ty y) -> float { $acc }
userfun scaleAdd(float alpha, float ax, float beta, float y) -> float { return alpha * ax + beta * y; }
fun gemv(A: [[float]K*$((L * R * W))]M, x: [float]K*$((L * R * W)), y: [float]M, alpha: float, beta: float) =
  join o mapWrg0(fun(rowAndY =>
    toGlobal(mapLcl0(mapSeq(fun(ax => scaleAdd(alpha, ax, beta, get(1, rowAndY)))))) o split1 o $tree o
    join o mapLcl0(toLocal(mapSeq(id)) o reduceSeq(madd, 0.0f)) o split(K*$R) o reorderStride($L) $ $vec
  )) $ zip(A, y)
EOF
      echo "M=$rows,K=$((cols / (L * R * W)))" ;;
  esac
}

printf '| shape | sizes | median ms | GB/s | validation |\n|---|---|---|---|---|\n'
run_shape() {
  local kind=$1 L=$2 R=$3 W=$4 size out
  size=$(write "$kind" "$L" "$R" "$W")
  out=$("$liftc" run "$work/$kind-$L-$R-$W.lift" --device "$device" --size "$size" --repeat "${REPEAT:-10}" \
    --interp-budget 0 2>&1)
  local ms gbs val
  ms=$(sed -n 's/^time: *median \([0-9.e+-]*\) ms.*/\1/p' <<<"$out")
  gbs=$(sed -n 's/^throughput: *\([0-9.]*\) GB\/s.*/\1/p' <<<"$out")
  val=$(sed -n 's/^validation: *//p' <<<"$out" | cut -c1-60)
  [[ -z $ms ]] && val=$(tail -2 <<<"$out" | tr '\n' ' ' | cut -c1-120)
  printf '| %s L=%s R=%s W=%s | %s | %s | %s | %s |\n' "$kind" "$L" "$R" "$W" "$size" "${ms:--}" "${gbs:--}" "$val"
}
for kind in dot asum; do
  for W in 1 4; do for L in 128 256; do for R in 4 8 16; do run_shape $kind $L $R $W; done; done; done
done
for W in 1 4; do for L in 128 256; do run_shape gemv $L 1 $W; done; done
rm -rf "$work"
