#!/usr/bin/env bash
# Packs liftc, bench_kernels and bench_skelcl for the NVIDIA GPU machine into .gpu-ex/
# (git-ignored; carry it with the `run` tool), with the shared libraries the machine lacks (see the shared
# device/README.md): the ICD loader, CLBlast, OpenBLAS (the references of large problems and
# the CPU peer) and whatever else ldd shows outside the C/C++ runtime. libstdc++ is linked
# statically (LIFT_STATIC_LIFTC). Also CLBlast's tuners of Xgemm and Xgemv, clblast_tuner_xgemm and
# clblast_tuner_xgemv (clblast-tune.sh), cl_build_info, cl_bandwidth and cl_host_copies.
#
# Usage: bench/kernels/pack-gpu.sh [BUILD_DIR]      (default build-ex-gpu)
# Then on the device:  PACK=.gpu-ex bench/kernels/run.sh gpu
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build-ex-gpu}
pack=$root/.gpu-ex
libdir=/usr/lib/x86_64-linux-gnu
mkdir -p "$root/.git/info"
grep -qxF '/.gpu-ex/' "$root/.git/info/exclude" 2>/dev/null || echo /.gpu-ex/ >>"$root/.git/info/exclude"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIFT_BUILD_GUI=OFF -DLIFT_BUILD_TESTS=OFF \
  -DLIFT_BUILD_BENCH=ON -DLIFT_STATIC_LIFTC=ON >/dev/null
ninja -C "$build" liftc bench_kernels bench_skelcl

rm -rf "$pack" && mkdir -p "$pack/lib"
cp "$build/app/liftc" "$build/bench/kernels/bench_kernels" "$build/bench/skelcl/bench_skelcl" "$pack/"
strip "$pack/liftc" "$pack/bench_kernels" "$pack/bench_skelcl"
system='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libstdc\+\+|libgcc_s)'
copy_deps() {
  ldd "$1" | awk '/=>/ && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ $name =~ $system ]] && continue
    [[ -e $pack/lib/$name ]] || cp -L "$path" "$pack/lib/$name"
  done
}
copy_deps "$pack/liftc"
copy_deps "$pack/bench_kernels"
copy_deps "$pack/bench_skelcl"
[[ -e $pack/lib/libopenblas.so.0 ]] || cp -L "$libdir/libopenblas.so.0" "$pack/lib/"
copy_deps "$libdir/libopenblas.so.0"
# What the driver says of a kernel's build (registers, spills: bench/gpu/cl_build_info.cpp).
g++ -O2 -std=c++20 -static-libstdc++ -static-libgcc -o "$pack/cl_build_info" "$root/bench/gpu/cl_build_info.cpp" -lOpenCL
# Plain OpenCL's copy and sum bandwidth, the input buffer made four ways (bench/gpu/cl_bandwidth.cpp).
g++ -O2 -std=c++20 -static-libstdc++ -static-libgcc -o "$pack/cl_bandwidth" "$root/bench/gpu/cl_bandwidth.cpp" -lOpenCL
# Downloads and uploads into host memory made nine ways (bench/gpu/cl_host_copies.cpp).
g++ -O2 -std=c++20 -static-libstdc++ -static-libgcc -o "$pack/cl_host_copies" "$root/bench/gpu/cl_host_copies.cpp" -lOpenCL
# CLBlast's own tuners (bench/kernels/clblast-tune.sh), from Debian's clblast-utils.
tmp=$(mktemp -d)
if (cd "$tmp" && apt-get download clblast-utils >/dev/null 2>&1); then
  dpkg -x "$tmp"/clblast-utils_*.deb "$tmp/x"
  for tuner in clblast_tuner_xgemm clblast_tuner_xgemv; do
    cp "$tmp/x/usr/bin/$tuner" "$pack/"
    copy_deps "$pack/$tuner"
  done
else
  echo "pack-gpu: could not download clblast-utils (no CLBlast tuners in the pack)" >&2
fi
rm -rf "$tmp"
# OpenBLAS (about 36 MiB) and the Fortran runtime it needs travel compressed (about 5 MiB):
# bench/gpu/device-env.sh unpacks them on the device.
(cd "$pack/lib" && tar -cf - libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 2>/dev/null | xz -T0 -6 >"$pack/lib-blas.tar.xz" &&
  rm -f libopenblas.so.0 libgfortran.so.5 libquadmath.so.0)
echo "== $pack ($(du -sh "$pack" | cut -f1))"
ls -l "$pack" "$pack/lib"
