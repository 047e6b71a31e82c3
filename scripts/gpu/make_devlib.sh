#!/bin/sh
# Put the built ttref into one folder for the GPU machine, which has no libyaml/GSL packages and
# no autotools to build it: the ttref binary, libttref.so, libttref_conform.so (ttref.compare's
# judge, found next to libttref.so), and every shared library they load
# beyond the C library itself (libyaml, GSL, libgomp, libquadmath ...). Run it in the build tree:
#   scripts/gpu/make_devlib.sh [DIR]      (default .devlib; ignored by git, carry it to the device)
# then on the device: LD_LIBRARY_PATH=$PWD/DIR TTREF_LIB=$PWD/DIR/libttref.so TTREF_BIN=$PWD/DIR/ttref
# (docs/triton.md). Exit 2 when the tree has no shared build.
set -eu
D=${1:-.devlib}
if [ ! -x ./ttref ] || [ ! -f .libs/libttref.so ] || [ ! -f .libs/libttref_conform.so ]; then
  echo "make_devlib.sh: error: run it in a build tree with ./ttref, .libs/libttref.so and .libs/libttref_conform.so (make, shared libraries on)" >&2
  exit 2
fi
mkdir -p "$D"
cp ./ttref "$D/ttref"
cp -L .libs/libttref.so "$D/libttref.so"
cp -L .libs/libttref_conform.so "$D/libttref_conform.so"
n=0
for lib in $( (ldd ./ttref; ldd .libs/libttref.so; ldd .libs/libttref_conform.so) | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  case ${lib##*/} in
    libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;  # the device's own glibc
    *) cp -L "$lib" "$D/"; n=$((n + 1)) ;;
  esac
done
echo "$D: ttref, libttref.so, libttref_conform.so and $n shared libraries ($(du -sh "$D" | cut -f1))"
