# Sourced by the SGEMM scripts that derive the best kernel's family by hand and time it or its
# variants on the GPU machine (sgemm-blocks, sgemm-hand-variants, sgemm-loop-variants,
# sgemm-profile, sgemm-step-variants, sgemm-stream-k, sgemm-waves): the pack's libraries and the
# NVIDIA driver (device-env.sh), derive_vectorized_local (derived/vectorized-local.sh), $liftc
# (LIFTC, default the pack's) and $tmp, a folder removed when the script exits. Expects $root.
source "$root/bench/gpu/device-env.sh"
source "$root/bench/gpu/derived/vectorized-local.sh"
liftc=${LIFTC:-$pack/liftc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
