# lib.sh: what the benchmark scripts share.  Source it before they change
# folder: the relative paths they are given are made absolute first.

command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 2; }

# absolute PATH: PATH from the current folder, whatever it names
absolute() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "${PWD%/}/$1" ;; esac; }

# timed FORMAT COMMAND...: runs COMMAND (its output dropped) under GNU time
# and prints time's figures in FORMAT; when COMMAND fails, prints its
# messages on standard error instead and returns its exit status.
timed() {
  local fmt=$1 log figures rc=0
  shift
  log=$(mktemp) figures=$(mktemp)
  /usr/bin/time -o "$figures" -f "$fmt" "$@" >/dev/null 2>"$log" || rc=$?
  if [[ $rc -eq 0 ]]; then
    tail -1 "$figures"
  else
    echo "bench: $* failed (exit $rc):" >&2
    cat "$log" >&2
  fi
  rm -f "$log" "$figures"
  return "$rc"
}
