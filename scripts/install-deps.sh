#!/usr/bin/env bash
# Installs the Debian packages google-mlir builds and tests with.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
  cmake ninja-build \
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22 lld-22 \
  python3 python3-dev python3-numpy python3-pytest python3-pip \
  python3-setuptools python3-wheel valgrind libclang-rt-22-dev \
  liblld-22-dev libopenblas0-pthread libomp-22-dev rocm-device-libs \
  libeigen3-dev python3-matplotlib python3-sklearn
