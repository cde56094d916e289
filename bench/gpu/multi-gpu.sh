#!/usr/bin/env bash
# Runs on G GPUs of one host (issues 16 and 20), for each G of GPUS (default 1, 2, 4, 8 up to the
# host's count), and prints one table per part:
#  search  one `liftc explore` of matmul.lift at 4096³ with a --device per GPU into one store,
#          BUDGET each: valid kernels per minute between the first and the last kernel measured
#          (the reference computed before the first is left out) and the best kernel;
#  shards  the same search as G processes, `--shard i/G` on GPU i each, their stores merged with
#          `liftc results --merge`: the same figures, and how the merged store compares with the
#          single process's of the search part (kernels measured by both, their status agreeing);
#  skelcl  bench_skelcl's cases NAME:SIZE (SKELCL_CASES, default "matmul:8192 blur:16384
#          scan:67108864") on G GPUs: host to host (uploads, kernels, downloads), and each phase
#          timed apart, with the containers' host copies in each HOST_MEMORY (default "pageable
#          page-locked"), from the device set's host pool or not for each HOST_POOL (default "on":
#          bench_skelcl --host-pool; "off on" measures both, the speed-up of each against one GPU
#          with the same memory and pool).
#  topology  how the GPUs reach the host's memory (`nvidia-smi topo -m`, the NUMA nodes), and the
#          blur on all GPUs with page-locked host copies run once bound to each NUMA node
#          (`numactl --cpunodebind=N --membind=N`, where numactl is installed): whether the
#          transfers of G GPUs are bound by the host's memory of one node or by its links.
# Usage: bench/gpu/multi-gpu.sh [search] [shards] [skelcl] [topology]   (default: the first three;
# carry .gpu-ex)
# Env: GPUS, BUDGET (default 60s), SIZE (MxNxK, default 4096x4096x4096), SKELCL_CASES, HOST_MEMORY,
# HOST_POOL, OUT.
# Tables go to stdout and to $OUT (default gpu-out/).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
source "$root/bench/gpu/device-env.sh"
liftc=${LIFTC:-$pack/liftc}
bench=${BENCH_SKELCL:-$pack/bench_skelcl}
parts=${*:-search shards skelcl}
gpus_here=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
nvidia-smi -L 2>/dev/null | tee "$out/device.txt"
if [[ -z ${GPUS:-} ]]; then
  GPUS=""
  for g in 1 2 4 8; do ((g <= gpus_here)) && GPUS+="$g "; done
fi
budget=${BUDGET:-60s}
IFS=x read -r m n k <<<"${SIZE:-4096x4096x4096}"
program=$root/resources/examples/matmul.lift

# Every search starts with empty kernel build caches (ours and the NVIDIA driver's), as a new
# search does: otherwise the later runs would load the kernels the earlier ones built.
fresh_cache() {
  export XDG_CACHE_HOME
  XDG_CACHE_HOME=$(mktemp -d)
}
export CUDA_CACHE_DISABLE=1

devices() {  # --device 0 ... --device G-1
  local g=$1 i
  for ((i = 0; i < g; ++i)); do printf -- '--device %d ' "$i"; done
}

# rate STORE...: "valid per minute, valid, evaluated, best GFLOP/s, best kernel's parameters"
rate() {
  python3 - "$liftc" "$@" <<'EOF'
import csv, io, subprocess, sys
liftc, stores = sys.argv[1], sys.argv[2:]
rows = []
for s in stores:
    text = subprocess.run([liftc, "results", "--db", s, "--csv", "--all"], capture_output=True, text=True).stdout
    rows += list(csv.DictReader(io.StringIO(text)))
valid = [r for r in rows if r["status"] == "ok"]
times = [float(r["elapsed_s"]) for r in rows if r["elapsed_s"]]
span = (max(times) - min(times)) if len(times) > 1 else 0
best = max(valid, key=lambda r: float(r["gflops"])) if valid else None
per_min = 60 * (len(valid) - 1) / span if span > 0 else 0
print(f"{per_min:.1f} | {len(valid)} | {len(rows)} | "
      + (f"{float(best['gflops']) / 1000:.1f} | {best['parameters']}" if best else "- | -"))
EOF
}

if [[ $parts == *search* ]]; then
  echo "== search: one liftc explore, a --device per GPU ($budget, ${m}x${n}x${k})"
  {
    printf '| GPUs | valid kernels / min | valid | measured | best TFLOP/s | best parameters |\n|---|---|---|---|---|---|\n'
    for g in $GPUS; do
      db=$out/search-$g.sqlite
      rm -f "$db"
      fresh_cache
      # shellcheck disable=SC2046
      "$liftc" explore "$program" $(devices "$g") --size "M=$m,N=$n,K=$k" --budget "$budget" --db "$db" --quiet \
        >"$out/search-$g.txt" 2>&1
      printf '| %s | %s |\n' "$g" "$(rate "$db")"
    done
  } | tee "$out/search.md"
fi

if [[ $parts == *shards* ]]; then
  echo "== shards: G processes, --shard i/G on GPU i, stores merged ($budget)"
  {
    printf '| GPUs | valid kernels / min | valid | measured | best TFLOP/s | best parameters | vs one process |\n|---|---|---|---|---|---|---|\n'
    for g in $GPUS; do
      stores=()
      fresh_cache  # one for the G processes of this host, as on one machine
      for ((i = 0; i < g; ++i)); do
        db=$out/shard-$g-$i.sqlite
        rm -f "$db"
        stores+=("$db")
        "$liftc" explore "$program" --device "$i" --shard "$i/$g" --size "M=$m,N=$n,K=$k" --budget "$budget" \
          --db "$db" --quiet >"$out/shard-$g-$i.txt" 2>&1 &
      done
      wait
      merged=$out/shards-$g.sqlite
      rm -f "$merged"
      "$liftc" results --merge "${stores[@]}" -o "$merged" >/dev/null
      same=$(python3 - "$liftc" "$merged" "$out/search-$g.sqlite" <<'EOF'
import csv, io, os, subprocess, sys
liftc, merged, single = sys.argv[1:4]
def kernels(store):
    if not os.path.exists(store):
        return {}
    text = subprocess.run([liftc, "results", "--db", store, "--csv", "--all"], capture_output=True, text=True).stdout
    return {(r["program_hash"], r["parameters"]): r["status"] for r in csv.DictReader(io.StringIO(text))}
a, b = kernels(merged), kernels(single)
both = set(a) & set(b)
agree = sum(1 for key in both if a[key] == b[key])
print(f"{len(both)} kernels in both, {agree} with the same status" if b else "no single-process store")
EOF
)
      printf '| %s | %s | %s |\n' "$g" "$(rate "$merged")" "$same"
    done
  } | tee "$out/shards.md"
fi

if [[ $parts == *topology* ]]; then
  echo "== topology: the GPUs, the host's NUMA nodes"
  {
    nvidia-smi topo -m 2>&1
    if command -v numactl >/dev/null; then numactl -H 2>&1; else lscpu 2>&1 | grep -i 'numa\|socket\|model name'; fi
    all=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    if command -v numactl >/dev/null; then
      for node in $(numactl -H | awk '/^available:/ { for (i = 0; i < $2; ++i) print i }'); do
        # shellcheck disable=SC2046
        line=$(numactl --cpunodebind="$node" --membind="$node" "$bench" blur --size 16384 $(devices "$all") \
          --repeat 3 --host-memory page-locked 2>&1 | tail -1)
        echo "blur 16384 on $all GPUs, page-locked, bound to NUMA node $node: $line"
      done
    fi
  } | tee "$out/topology.txt"
fi

if [[ $parts == *skelcl* ]]; then
  echo "== SkelCL on G GPUs (uploads, kernels and downloads; kernels only)"
  {
    printf '| case | size | host memory | host pool | GPUs | total ms | upload ms | kernels ms | download ms | rate (total) | rate (kernels) | unit | check | speed-up (total) | host alloc ms |\n'
    printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
    for c in ${SKELCL_CASES:-matmul:8192 blur:16384 scan:67108864}; do
      name=${c%%:*} size=${c#*:}
      if ! "$bench" "$name" --size 1 --device 0 --repeat 1 >/dev/null 2>&1; then
        printf '| %s | %s | | | | | | | | | | | not in this bench_skelcl | | |\n' "$name" "$size"
        continue
      fi
      for memory in ${HOST_MEMORY:-pageable page-locked}; do
        for pool in ${HOST_POOL:-on}; do
          one=""
          for g in $GPUS; do
            # shellcheck disable=SC2046
            line=$("$bench" "$name" --size "$size" $(devices "$g") --repeat "${REPEAT:-3}" --host-memory "$memory" \
              --host-pool "$pool" 2>&1 | tail -1)
            read -r _ _ _ total up kernels down rt rk unit check alloc _ <<<"$line"
            [[ -z $one && $g == 1 ]] && one=$total
            speedup=-
            [[ -n $one && $total =~ ^[0-9.]+$ ]] && speedup=$(python3 -c "print(f'{$one / $total:.2f}x')")
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$size" \
              "$memory" "$pool" "$g" "${total:-$line}" "${up:-}" "${kernels:-}" "${down:-}" "${rt:-}" "${rk:-}" \
              "${unit:-}" "${check:-}" "$speedup" "${alloc:-}"
          done
        done
      done
    done
  } | tee "$out/skelcl.md"
fi
