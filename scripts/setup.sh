#!/usr/bin/env bash
# setup.sh [BUILD_DIR [CMAKE_ARGS...]]
# Installs the Debian 12 packages hsim builds with (when missing), and those
# named in HSIM_EXTRA_PACKAGES (test tools), then configures and builds hsim
# in BUILD_DIR (default: build).  Needs root (or sudo) only when packages
# are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config zlib1g-dev libgsl-dev libcsv-dev
          libcairo2-dev libpng-dev libhwloc-dev libcunit1-dev libinih-dev libxgboost-dev
          chromium poppler-utils libxml2-utils) # the last three: the chart tests
read -r -a extra <<< "${HSIM_EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
