# Sourced by the scripts that run on the NVIDIA GPU machine: the libraries of the pack (.gpu-ex,
# bench/kernels/pack-gpu.sh) on the library path, and the NVIDIA OpenCL driver as the only ICD
# (the machine has no ICD loader set-up of its own; ../shared/device/README.md).
# Expects $root (the project root); sets $pack.
pack=${pack:-$root/.gpu-ex}
# pack-gpu.sh ships OpenBLAS and its Fortran runtime compressed (36 of the pack's MiB otherwise).
if [[ -f $pack/lib-blas.tar.xz && ! -e $pack/lib/libopenblas.so.0 ]]; then
  tar -C "$pack/lib" -xJf "$pack/lib-blas.tar.xz"
fi
[[ -d $pack/lib ]] && export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [[ -z ${OCL_ICD_VENDORS:-} && -e /usr/lib/libnvidia-opencl.so.1 ]]; then
  mkdir -p /tmp/icd && echo /usr/lib/libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd
fi
# The CLBlast parameters tuned by its own tuner for this machine's GPU (clblast-tuned/, one file a
# device kind: nvidia-h200.txt on an H200, else nvidia-h100.txt); CLBLAST_TUNED overrides.
clblast_tuned_file() {
  local dir=$root/bench/kernels/clblast-tuned gpu
  [[ -n ${CLBLAST_TUNED:-} ]] && { echo "$CLBLAST_TUNED"; return; }
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  if [[ $gpu == *H200* && -e $dir/nvidia-h200.txt ]]; then echo "$dir/nvidia-h200.txt"; else echo "$dir/nvidia-h100.txt"; fi
}
