#!/usr/bin/env bash
# install.test.sh HSIM SHARED WORKDIR
# cmake --install of the build HSIM belongs to, into a temporary prefix
# (WORKDIR/prefix), then the quick start run from there, as a user who
# installed hsim would: the binary, the manual page and the example
# experiments are in place, the installed quickstart.ini finds its trace,
# its results equal those of the source tree's, and an installed
# experiment that reads the shared traces runs once PREFIX/share/shared
# points at them (docs/config.md says so).  Every check prints one line;
# the script exits 1 if any failed.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: install.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # before test_setup's cd
shared=$(cd "$2" && pwd) || { echo "install: no shared folder $2" >&2; exit 2; }
test_setup install "$1" "$3"
build=$(dirname "$hsim") # the build folder: hsim is built at its top
cmake=$(command -v cmake) || { echo "install: cmake is not installed" >&2; exit 2; }

prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >install.txt 2>&1
rc=$?
check "cmake --install exits 0" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' install.txt
check "the binary is installed" test -x "$prefix/bin/hsim"
check "the manual page is installed" test -s "$prefix/share/man/man1/hsim.1"
for f in "$repo"/experiments/*.ini; do
  check "experiments/$(basename "$f") is installed" \
    cmp -s "$f" "$prefix/share/hsim/experiments/$(basename "$f")"
done
check "the quick-start trace is installed" test -s "$prefix/share/hsim/traces/quickstart.swf"
check "the topologies are installed" test -s "$prefix/share/hsim/traces/topologies/gpu4-node.xml"
if command -v man >/dev/null 2>&1; then
  LC_ALL=C MANWIDTH=80 man -l "$prefix/share/man/man1/hsim.1" >man.txt 2>&1
  check "man -l reads the installed page" grep -q "simulate job scheduling" man.txt
fi

# the quick start, from the installed files, in a folder of its own
mkdir -p installed tree
(cd installed && "$prefix/bin/hsim" "$prefix/share/hsim/experiments/quickstart.ini" \
  >out.txt 2>err.txt)
rc=$?
check "the installed quick start exits 0" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' installed/err.txt
check "the installed quick start prints its table" grep -q "^easy " installed/out.txt
(cd tree && "$hsim" -q "$repo/experiments/quickstart.ini" 2>err.txt)
check "its summary.csv is the source tree's" \
  cmp -s installed/results/quickstart/summary.csv tree/results/quickstart/summary.csv

# an installed experiment on the shared traces (../../shared from its folder)
ln -s "$shared" "$prefix/share/shared"
(cd installed && "$prefix/bin/hsim" -q "$prefix/share/hsim/experiments/gavel-heterogeneity.ini" \
  2>gavel-err.txt)
rc=$?
check "the installed gavel experiment runs with share/shared linked" test $rc -eq 0
[[ $rc -eq 0 ]] || sed 's/^/    /' installed/gavel-err.txt

test_finish
