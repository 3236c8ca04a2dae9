# Shared by the CLI test scripts (source it): a temporary directory $tmp
# removed on exit, a $failures count, and
#   expect_exit CODE DESCRIPTION CMD...   runs CMD (60 s at most; stdout to
#                                         $tmp/out, stderr to $tmp/err) and
#                                         checks its exit code
#   expect_grep PATTERN FILE DESCRIPTION  checks FILE contains PATTERN
#   fail DESCRIPTION                      counts a failure
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

expect_exit() {
  local want=$1 what=$2
  shift 2
  timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL: $what: exit $got, want $want"
    head -c 2000 "$tmp/out" "$tmp/err"
    failures=$((failures + 1))
  fi
}
expect_grep() {
  if ! grep -q -- "$1" "$2"; then
    echo "FAIL: $3: '$1' not in output:"; head -c 2000 "$2"
    failures=$((failures + 1))
  fi
}
fail() {
  echo "FAIL: $1"
  failures=$((failures + 1))
}
