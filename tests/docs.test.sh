#!/usr/bin/env bash
# docs.test.sh HSIM SHARED WORKDIR
# The documentation against the binary:
# - every ```ini block of README.md and docs/*.md is a whole experiment that
#   runs (exit 0).  Each is written to WORKDIR/tree/experiments/, beside a
#   link to the source tree's traces/ (WORKDIR/tree/traces) and one to the
#   shared data (WORKDIR/shared), so its paths read as in the shipped
#   experiments: ../traces/... and ../../shared/... (docs/config.md states
#   this convention).  A block opened by ```ini fragment is part of an
#   experiment shown alone, and is skipped;
# - every name that `hsim help policies` lists (from the registries) is
#   documented in docs/policies.md, as `name`;
# - the manual page exists and formats without warnings (when man is here).
# Every check prints one line; the script exits 1 if any failed.
set -uo pipefail

[[ $# -eq 3 ]] || { echo "usage: docs.test.sh HSIM SHARED WORKDIR" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # before test_setup's cd
shared=$(cd "$2" && pwd) || { echo "docs: no shared folder $2" >&2; exit 2; }
test_setup docs "$1" "$3"

mkdir -p tree/experiments
ln -s "$repo/traces" tree/traces
ln -s "$shared" shared

# ---- every ini block runs ----
# Writes each block to tree/experiments/<page>-<n>.ini and prints its name
# and the line of the page where it starts.
extract() { # extract PAGE
  awk -v page="$1" -v base="$(basename "$1" .md)" -v dir=tree/experiments '
    /^```ini[ \t]*$/ { n++; out = sprintf("%s/%s-%d.ini", dir, base, n); start = NR
                       printf "%s %d\n", out, start; inblock = 1; next }
    /^```/ && inblock { inblock = 0; close(out); next }
    inblock { print > out }
  ' "$1"
}
blocks=0
for page in "$repo"/README.md "$repo"/docs/*.md; do
  while read -r ini line; do
    blocks=$((blocks + 1))
    where="${page#"$repo"/}:$line"
    run -q "$ini"
    check "$where: the ini block runs (exit $rc)" test $rc -eq 0
    [[ $rc -eq 0 ]] || sed 's/^/    /' err.txt
  done < <(extract "$page")
done
check "the pages hold ini blocks ($blocks)" test "$blocks" -ge 5

# ---- every registered plug-in is documented ----
run help policies
check "hsim help policies exits 0" test $rc -eq 0
names=$(awk '/^  [^ ]/ { print $1 }' out.txt)
check "hsim help policies lists plug-ins" test -n "$names"
run help
check "hsim help prints the usage" has_out "usage: hsim"
run help frobnicate
check "hsim help frobnicate exits 2" test $rc -eq 2
check "hsim help frobnicate: says what it expected" has_err "expected 'hsim help policies'"
run --help
check "--help points to hsim help policies" has_out "hsim help policies"
run help policies
for name in $names; do
  check "docs/policies.md documents '$name'" grep -qF -- "\`$name\`" "$repo/docs/policies.md"
done

# ---- the manual page ----
check "docs/hsim.1 exists" test -s "$repo/docs/hsim.1"
if command -v man >/dev/null 2>&1; then
  LC_ALL=C MANWIDTH=80 man --warnings -l "$repo/docs/hsim.1" >man.txt 2>man-err.txt
  check "man -l docs/hsim.1 formats it" grep -q "hsim help policies" man.txt
  check "man -l docs/hsim.1: no warnings" test ! -s man-err.txt
fi

test_finish
