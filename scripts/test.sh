#!/usr/bin/env bash
# test.sh: set up, build with warnings as errors, and run the whole test
# suite (unit, golden and command-line tests, and cppcheck) twice: on a plain
# build and on a build with AddressSanitizer and UndefinedBehaviorSanitizer.  The golden
# tests read ../shared (set HSIM_SHARED to put it elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${HSIM_SHARED:-$(cd .. && pwd)/shared}
jobs=$(nproc)

HSIM_EXTRA_PACKAGES=cppcheck scripts/setup.sh build -DHSIM_WERROR=ON -DHSIM_SHARED="$shared"
(cd build && ctest --output-on-failure -j "$jobs")

echo "== the same suite under AddressSanitizer and UndefinedBehaviorSanitizer"
scripts/setup.sh build-asan -DHSIM_WERROR=ON -DHSIM_SANITIZE=ON -DHSIM_SHARED="$shared"
# (the path quoted inside the value: the sanitizers split their options at blanks)
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions='$(pwd)/../tests/lsan.supp'" \
  ctest --output-on-failure -j "$jobs")
