#!/bin/sh
# One-shot, idempotent set-up of ttref on Debian 12: installs the build
# dependencies (as root; otherwise says what to install), then
# autoreconf + configure + make. Extra arguments go to ./configure.
set -eu
cd "$(dirname "$0")/.."
PKGS="build-essential autoconf automake libtool autoconf-archive pkg-config libgsl-dev libyaml-dev libcmocka-dev libmpfr-dev lcov python3 python3-numpy libxml2-utils"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup: installing$missing"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "setup: missing packages:$missing" >&2
    echo "setup: run as root, or: sudo apt-get install$missing" >&2
    exit 2
  fi
fi
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
  autoreconf -fi
fi
if [ ! -f Makefile ] || [ "$#" -gt 0 ]; then
  ./configure "$@"
fi
make -j"$(nproc)"
