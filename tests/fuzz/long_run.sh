#!/usr/bin/env bash
# The long structure-aware world-mutant run behind the README's reliability
# numbers: N mutants of seed S through world_mutant_run, restarted after
# the mutant that crashed (which world_mutant_run saves to CORPUS first), so
# one crash does not hide the rest. Prints each run's summary line and the
# crash count.
#   tests/fuzz/long_run.sh build/tests/world_mutant_run 1000000 2026 /tmp/out
set -u
run="$1" total="$2" seed="$3" corpus="$4"
mkdir -p "$corpus"
first=0 crashes=0
while [ "$first" -lt "$total" ]; do
  "$run" --seed="$seed" --first="$first" --mutants=$((total - first)) \
    --corpus="$corpus" >"$corpus/summary.txt" 2>"$corpus/stderr.txt"
  rc=$?
  cat "$corpus/summary.txt"
  grep -v "fatal signal" "$corpus/stderr.txt"
  crashed=$(grep -o "crash-$seed-[0-9]*" "$corpus/stderr.txt" | head -1)
  if [ -z "$crashed" ]; then
    break
  fi
  crashes=$((crashes + 1))
  echo "crash or hang at mutant ${crashed##*-} (rc $rc), saved to $corpus"
  first=$((${crashed##*-} + 1))
done
echo "crashes or hangs: $crashes"
