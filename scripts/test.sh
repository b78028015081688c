#!/usr/bin/env bash
# test.sh [quick]: set up, build with warnings as errors, and run the test
# suite (unit, golden and command-line tests, end-to-end scripts and
# cppcheck) twice: on a plain build and on a build with AddressSanitizer and
# UndefinedBehaviorSanitizer.  The golden tests read ../shared (set
# HSIM_SHARED to put it elsewhere).
#   scripts/test.sh         both tiers, both builds (what CI runs)
#   scripts/test.sh quick   the quick tier only (ctest -L quick), both builds
# docs/testing.md describes the tiers and what each test covers.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
jobs=$(nproc)
case ${1:-} in
  "") tier=() ;;
  quick) tier=(-L quick) ;;
  *) echo "usage: scripts/test.sh [quick]" >&2; exit 2 ;;
esac

HSIM_EXTRA_PACKAGES=cppcheck scripts/setup.sh build -DHSIM_WERROR=ON -DHSIM_SHARED="$shared"
(cd build && ctest --output-on-failure -j "$jobs" "${tier[@]}")

echo "== the same suite under AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/setup.sh build-asan -DHSIM_WERROR=ON -DHSIM_SANITIZE=ON -DHSIM_SHARED="$shared"
# (the path quoted inside the value: the sanitizers split their options at blanks)
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions='$(pwd)/../tests/lsan.supp'" \
  ctest --output-on-failure -j "$jobs" "${tier[@]}")
