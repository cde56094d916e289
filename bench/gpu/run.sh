#!/usr/bin/env bash
# Packs what the NVIDIA GPU machine needs to run liftc into .gpu/ (git-ignored; the `run` tool
# carries it there): a liftc built without Qt or tests, with libstdc++ linked statically, and
# the shared libraries it uses that the GPU machine lacks (see ../shared/device/README.md):
#   .gpu/liftc            the command-line tool
#   .gpu/lib/             libOpenCL.so.1 (the ICD loader), libclblast.so.1, and every library
#                         ldd shows outside the C/C++ runtime (fmt, sqlite, ...), plus OpenBLAS
#                         (loaded by `liftc run` for its BLAS references) with its dependencies
# Then, on the device:  bench/gpu/device.sh   (see that script).
#
# Usage: bench/gpu/run.sh [--head] [BUILD_DIR]
#   default       builds the working tree in build-gpu (in the project root)
#   --head        builds a clean export of the last commit (git archive HEAD) in build-gpu-head,
#                 so that other people's edits in progress in the working tree do not get in
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$root
if [[ ${1:-} == --head ]]; then
  shift
  build=${1:-$root/build-gpu-head}
  src=$build/src
  rm -rf "$src" && mkdir -p "$src"
  git -C "$root" archive HEAD | tar -x -C "$src"
  echo "== building $(git -C "$root" rev-parse --short HEAD) (a clean export of HEAD)"
else
  build=${1:-$root/build-gpu}
fi
pack=$root/.gpu
libdir=/usr/lib/x86_64-linux-gnu

grep -qxF '/.gpu/' "$root/.git/info/exclude" 2>/dev/null || grep -qxF '/.gpu/' "$root/.gitignore" ||
  echo /.gpu/ >>"$root/.git/info/exclude"

echo "== building liftc in $build"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLIFT_BUILD_GUI=OFF -DLIFT_BUILD_TESTS=OFF \
  -DLIFT_BUILD_BENCH=OFF -DLIFT_STATIC_LIFTC=ON >/dev/null
ninja -C "$build" liftc

echo "== packing $pack"
rm -rf "$pack/lib" "$pack/debs" "$pack/liftc"
mkdir -p "$pack/lib" "$pack/debs"
cp "$build/app/liftc" "$pack/liftc"

# The ICD loader and CLBlast as Debian packages (the GPU machine has neither of its own).
if (cd "$pack/debs" && apt-get download ocl-icd-libopencl1 libclblast1 >/dev/null 2>&1); then
  for deb in "$pack"/debs/*.deb; do dpkg -x "$deb" "$pack/debs/x"; done
  cp -L "$pack/debs/x$libdir/libOpenCL.so.1" "$pack/debs/x$libdir/libclblast.so.1" "$pack/lib/"
else
  echo "apt-get download failed (offline?): copying the installed libraries instead" >&2
  cp -L "$libdir/libOpenCL.so.1" "$libdir/libclblast.so.1" "$pack/lib/"
fi

# Every other shared library of liftc and of OpenBLAS (dlopened, so not in liftc's ldd) outside
# the C and C++ runtime, which the GPU machine has.
system='^(linux-vdso|ld-linux|libc\.|libm\.|libdl\.|libpthread\.|librt\.|libstdc\+\+|libgcc_s)'
copy_deps() {
  ldd "$1" | awk '/=>/ && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
    [[ $name =~ $system ]] && continue
    [[ -e $pack/lib/$name ]] || cp -L "$path" "$pack/lib/$name"
  done
}
copy_deps "$pack/liftc"
if [[ -e $libdir/libopenblas.so.0 ]]; then
  cp -L "$libdir/libopenblas.so.0" "$pack/lib/"
  copy_deps "$libdir/libopenblas.so.0"
fi
rm -f "$pack/lib/libOpenCL.so.1.0.0"

echo "== .gpu is ready ($(du -sh "$pack" | cut -f1)):"
ls -l "$pack/liftc" "$pack/lib"
echo "next: run bench/gpu/device.sh on the device, carrying .gpu"
