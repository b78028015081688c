# testlib.sh: what the *.test.sh scripts share.  Source it, then call
# test_setup NAME HSIM WORKDIR; it makes hsim's path absolute, empties
# WORKDIR and enters it.  Each check prints one line; test_finish exits 1
# when any failed.  run leaves $rc, out.txt and err.txt (with
# SHOW_ERRORS=1 it also prints hsim's messages when it fails).

test_setup() {
  test_name=$1 hsim=$2 work=$3
  case $hsim in /*) ;; *) hsim=$(cd "$(dirname "$hsim")" && pwd)/$(basename "$hsim") ;; esac
  [[ -x $hsim ]] || { echo "$test_name: $hsim is not an executable" >&2; exit 2; }
  rm -rf "$work"
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
  cd "$work" || exit 2
  failures=0
}

pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
check() { # check NAME COMMAND... : passes when the command succeeds
  local name=$1
  shift
  if "$@"; then pass "$name"; else fail "$name"; fi
}

# run ARGS...: runs hsim, leaving $rc, out.txt and err.txt
run() {
  "$hsim" "$@" >out.txt 2>err.txt
  rc=$?
  if [[ ${SHOW_ERRORS:-0} -eq 1 && $rc -ne 0 ]]; then sed 's/^/    hsim: /' err.txt; fi
}
has_err() { grep -qF -- "$1" err.txt; }
has_out() { grep -qF -- "$1" out.txt; }

test_finish() {
  if [[ $failures -ne 0 ]]; then
    echo "$test_name: $failures check(s) failed"
    exit 1
  fi
  echo "$test_name: all checks passed"
}
