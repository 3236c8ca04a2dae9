#!/usr/bin/env bash
# End-to-end checks of the zonepath tool: exit codes (0 ok, 1 bad input,
# 2 usage), --help per subcommand, gen -> scen -> check-paths, JSON fields.
# usage: cli_test.sh ZONEPATH_BINARY
set -u
zp="$1"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

expect_exit 2 "no command" "$zp"
expect_exit 2 "unknown command" "$zp" fly
expect_exit 0 "top help" "$zp" --help
for cmd in demo scen check-paths gen build inspect query mem render report \
  changes; do
  expect_exit 0 "$cmd --help" "$zp" "$cmd" --help
done
"$zp" scen --help >"$tmp/help"
expect_grep "--paths" "$tmp/help" "scen help lists --paths"
if grep -q -- "--kind" "$tmp/help"; then
  echo "FAIL: scen help lists gen's --kind"; failures=$((failures + 1))
fi
expect_exit 2 "unknown flag" "$zp" scen a b --frobnicate
expect_exit 2 "flag of another command" "$zp" scen a b --kind=maze
expect_exit 2 "missing positional" "$zp" scen only-one
expect_exit 2 "bad flag value" "$zp" gen "$tmp/x.map" --width=abc
expect_exit 1 "missing map file" "$zp" scen "$tmp/nope.map" "$tmp/nope.scen"
printf 'type octile\nheight 2\nwidth 2\nmap\n..\n.\n' >"$tmp/bad.map"
expect_exit 1 "bad map" "$zp" demo --map "$tmp/bad.map"
expect_grep "bad.map:6" "$tmp/err" "error names file and line"

expect_exit 0 "gen" "$zp" gen "$tmp/rooms.map" --kind rooms --width 64 \
  --height 48 --seed 3 --feature 8
expect_exit 0 "demo on generated map" "$zp" demo --map "$tmp/rooms.map" \
  --queries 2
expect_grep "expanded" "$tmp/out" "demo prints statistics"
{
  printf 'version 1\n'
  printf '0\trooms.map\t64\t48\t0\t0\t62\t46\t0\n'
  printf '1\trooms.map\t64\t48\t5\t5\t5\t5\t0\n'
} >"$tmp/rooms.scen"
expect_exit 0 "scen" "$zp" scen "$tmp/rooms.map" "$tmp/rooms.scen" --json \
  --paths "$tmp/paths.txt"
for key in map algo queries solved optimal_matches subopt_mean_pct \
  subopt_max_pct time_us_mean time_us_p50 time_us_p99 expanded_mean \
  cost_mean; do
  expect_grep "\"$key\":" "$tmp/out" "scen --json has $key"
done
expect_grep '"solved":2' "$tmp/out" "both problems solved"
expect_grep $'^1\tok\t0.000000000\t$' "$tmp/paths.txt" "start == goal line"
expect_exit 0 "check-paths" "$zp" check-paths "$tmp/rooms.map" \
  "$tmp/rooms.scen" "$tmp/paths.txt"
# Jump point search: the same costs as A*, paths check-paths accepts; a
# weighted map is refused.
expect_exit 0 "scen jps" "$zp" scen "$tmp/rooms.map" "$tmp/rooms.scen" \
  --algo jps --paths "$tmp/jps.txt"
expect_exit 0 "check-paths jps" "$zp" check-paths "$tmp/rooms.map" \
  "$tmp/rooms.scen" "$tmp/jps.txt"
[ "$(cut -f1-3 "$tmp/jps.txt")" = "$(cut -f1-3 "$tmp/paths.txt")" ] ||
  fail "jps costs equal A*'s"
printf '...\n.2.\n...\n' >"$tmp/weighted_rows"
{
  printf 'type octile\nheight 3\nwidth 3\nmap\n'
  cat "$tmp/weighted_rows"
} >"$tmp/weighted.map"
printf 'version 1\n0\tweighted.map\t3\t3\t0\t0\t2\t2\t0\n' \
  >"$tmp/weighted.scen"
expect_exit 1 "jps refuses a weighted map" "$zp" scen "$tmp/weighted.map" \
  "$tmp/weighted.scen" --algo jps
expect_grep "cost the same" "$tmp/err" "jps names the reason"
# A tampered path must be caught.
sed -i '1s/\t[A-Z]*[0-9]*/\tS1/3' "$tmp/paths.txt"
expect_exit 1 "check-paths catches a bad path" "$zp" check-paths \
  "$tmp/rooms.map" "$tmp/rooms.scen" "$tmp/paths.txt"
printf 'version 1\n0\trooms.map\t65\t48\t0\t0\t1\t1\t0\n' >"$tmp/wrong.scen"
expect_exit 1 "scenario for another size" "$zp" scen "$tmp/rooms.map" \
  "$tmp/wrong.scen"
expect_grep "wrong.scen:2" "$tmp/err" "size error names the scen line"

# Offline build and inspection.
expect_exit 0 "build" "$zp" build "$tmp/rooms.map" -o "$tmp/rooms.zpw" \
  --zone-size 8 --levels 3 --group 2 --threads 2 --cache-paths --json
for key in cells levels zones beacons edges build_seconds file_bytes \
  grid_bytes abstraction_bytes cached_path_bytes; do
  expect_grep "\"$key\":" "$tmp/out" "build --json has $key"
done
expect_exit 0 "inspect" "$zp" inspect "$tmp/rooms.zpw"
expect_grep "level 3" "$tmp/out" "inspect lists level 3"
expect_exit 2 "build without -o" "$zp" build "$tmp/rooms.map" --json
expect_exit 1 "build with a bad zone size" "$zp" build "$tmp/rooms.map" \
  -o "$tmp/bad.zpw" --zone-size 2
[ -e "$tmp/bad.zpw" ] && { echo "FAIL: failed build left a file"; failures=$((failures + 1)); }
head -c 300 "$tmp/rooms.zpw" >"$tmp/cut.zpw"
expect_exit 1 "inspect a truncated world" "$zp" inspect "$tmp/cut.zpw"
expect_grep "cut.zpw" "$tmp/err" "truncation error names the file"
expect_exit 1 "inspect a map as a world" "$zp" inspect "$tmp/rooms.map"
expect_grep "not a zonepath world" "$tmp/err" "foreign file is named as such"

# Hierarchical queries.
expect_exit 0 "query" "$zp" query "$tmp/rooms.zpw" 0 0 62 46 --smooth --json
for key in status cost steps moves stages abstract refine connect; do
  expect_grep "\"$key\":" "$tmp/out" "query --json has $key"
done
expect_grep '"status":"found"' "$tmp/out" "query finds the path"
expect_exit 1 "query from a blocked cell" "$zp" query "$tmp/rooms.zpw" 8 0 1 1
expect_exit 2 "query with too few coordinates" "$zp" query "$tmp/rooms.zpw" 1 2 3
expect_exit 0 "scen hpa" "$zp" scen "$tmp/rooms.map" "$tmp/rooms.scen" \
  --algo hpa --world "$tmp/rooms.zpw" --smooth --json --paths "$tmp/hpa.txt"
for key in first_steps_us_mean connect_us_mean abstract_us_mean refine_us_mean \
  subopt_before_smoothing_mean_pct refine_levels top_levels; do
  expect_grep "\"$key\":" "$tmp/out" "scen hpa --json has $key"
done
# By the level whose plan each query used: start == goal needs none (0,
# cost 0); the corner-to-corner query's ends are 62 cells apart
# (Chebyshev), over one level-1 zone side (8, no direct search) and under
# four level-2 zone sides (64), so it plans on level 1. (nlohmann::json
# writes keys sorted.)
expect_grep '{"cost_mean":0.0,"first_steps_us_mean":[0-9.e+-]*,"queries":1,"time_us_mean":[0-9.e+-]*,"top_level":0}' \
  "$tmp/out" "scen hpa --json top_levels counts start == goal under level 0"
expect_grep '"queries":1,"time_us_mean":[0-9.e+-]*,"top_level":1}' "$tmp/out" \
  "scen hpa --json top_levels counts the long query under level 1"
grep -q '"top_level":2' "$tmp/out" && fail "no query plans on level 2"
# One entry per level of the 3-level world.
# Level 1 falls back to the window before's route only with free crossings.
expect_grep '"fallbacks":0,"level":1,' "$tmp/out" "scen hpa --json refine_levels has level 1, no fallback"
expect_grep '"level":3,' "$tmp/out" "scen hpa --json refine_levels has level 3"
expect_exit 0 "check-paths hpa" "$zp" check-paths "$tmp/rooms.map" \
  "$tmp/rooms.scen" "$tmp/hpa.txt"
expect_exit 0 "scen hpa without fewer turns" "$zp" scen "$tmp/rooms.map" \
  "$tmp/rooms.scen" --algo hpa --world "$tmp/rooms.zpw" --nofewer-turns --json
expect_grep '"fewer_turns":false' "$tmp/out" "--nofewer-turns reaches the planner"

# Path storage profile.
expect_exit 0 "mem with a scenario" "$zp" mem "$tmp/rooms.zpw" \
  "$tmp/rooms.scen" --json
for key in paths steps runs codecs bits_per_step ratio_vs_raw \
  encode_ns_per_step decode_ns_per_step store_bytes; do
  expect_grep "\"$key\":" "$tmp/out" "mem --json has $key"
done
for codec in run_length turns waypoints raw_cells; do
  expect_grep "\"name\":\"$codec\"" "$tmp/out" "mem reports $codec"
done
expect_exit 0 "mem with random queries" "$zp" mem "$tmp/rooms.zpw" --units 20
expect_grep "^run_length" "$tmp/out" "mem prints a table"
expect_exit 2 "mem with negative units" "$zp" mem "$tmp/rooms.zpw" --units -1
expect_exit 1 "mem on a missing world" "$zp" mem "$tmp/none.zpw"
expect_exit 1 "mem with a scenario of another map" "$zp" mem \
  "$tmp/rooms.zpw" "$tmp/wrong.scen"

# Pictures.
expect_exit 0 "render" "$zp" render "$tmp/rooms.zpw" -o "$tmp/r.png" --zones \
  --beacons --graph --explored --compare --path 0,0,62,46 --smooth
if [ "$(head -c 8 "$tmp/r.png" | od -An -tx1 | tr -d ' \n')" != \
     "89504e470d0a1a0a" ]; then
  echo "FAIL: render did not write a PNG"; failures=$((failures + 1))
fi
expect_grep "astar (0,0) -> (62,46): found" "$tmp/out" "render plans with A*"
expect_exit 0 "render a downscaled region" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/r2.png" --region 8,8,40,30 --scale 0.5
expect_exit 1 "render without -o" "$zp" render "$tmp/rooms.zpw"
expect_exit 2 "render a region outside the world" "$zp" render \
  "$tmp/rooms.zpw" -o "$tmp/r3.png" --region 50,40,20,20
expect_exit 1 "render a blocked path end" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/r4.png" --path 8,0,1,1
expect_exit 2 "render with a bad scale" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/r5.png" --scale 65
for f in r3 r4 r5; do
  [ -e "$tmp/$f.png" ] && { echo "FAIL: failed render left $f.png"; failures=$((failures + 1)); }
done

# Benchmark report (generated worlds only: no maps folder; tiny sizes;
# sides given out of order).
expect_exit 0 "report" "$zp" report -o "$tmp/rep" --maps "$tmp/no-maps" \
  --max-queries 4 --scaling 128,64 --scaling-queries 3 --scaling-passes 2 \
  --scaling-seconds 0
for section in "## Query time and quality per map set" "### generated" \
  "## Query time by path length" "## Scaling with the world's size" \
  "| rooms | 64 |" "--scaling-passes 2 --scaling-seconds 0" \
  "2 at least and more until 0 s"; do
  expect_grep "$section" "$tmp/rep/report.md" "report has '$section'"
done
# The scaling rows (fields: 3 side, 11 timed passes, 14 us per 1000 cost,
# 15 the smallest side's alongside, 16 the ratio): every kind's 64 row
# before its 128 row, two passes each, and each ratio the row's figure over
# the smallest side's.
awk -F'|' '$3 ~ /^ (64|128) $/ {
    n++; side[$2] = side[$2] " " $3 + 0
    if ($11 + 0 != 2) bad = bad "passes " $2 $3 "; "
    ratio = $16; sub(/×/, "", ratio); ratio += 0
    if ($14 + 0 <= 0 || $15 + 0 <= 0.05 || ratio + 0 <= 0) {
      bad = bad "no ratio " $2 $3 "; "; next
    }
    # The table rounds the ratio to 0.01 and its two operands to 0.1: the
    # ratio must lie within half a unit of what the operands allow.
    lo = ($14 - 0.05) / ($15 + 0.05); hi = ($14 + 0.05) / ($15 - 0.05)
    if (ratio < lo - 0.005 - 1e-9 || ratio > hi + 0.005 + 1e-9)
      bad = bad "ratio " $2 $3 " (" $14 "/" $15 " against" $16 "); "
  }
  END {
    for (k in side) if (side[k] != " 64 128") bad = bad "order " k "; "
    if (n != 6 || bad != "") { print "FAIL: report scaling rows: " n " rows, " bad; exit 1 }
  }' "$tmp/rep/report.md" || failures=$((failures + 1))
[ -s "$tmp/rep/time_vs_length.png" ] || { echo "FAIL: report wrote no plot"; failures=$((failures + 1)); }
expect_exit 1 "report without -o" "$zp" report
expect_exit 2 "report with a bad scaling size" "$zp" report -o "$tmp/rep2" \
  --scaling 7
expect_exit 2 "report with no timed passes" "$zp" report -o "$tmp/rep2" \
  --scaling 64 --scaling-passes 0
expect_grep "scaling-passes: 0 is not in 1..100" "$tmp/err" \
  "report names the bad --scaling-passes"
expect_exit 2 "report with negative seconds" "$zp" report -o "$tmp/rep2" \
  --scaling 64 --scaling-seconds -1
expect_exit 2 "report with no scaling queries" "$zp" report -o "$tmp/rep2" \
  --scaling 64 --scaling-queries 0
expect_exit 2 "report with an unknown world kind" "$zp" report \
  -o "$tmp/rep2" --scaling 64 --scaling-kinds lava
expect_grep "'lava' is not a world kind" "$tmp/err" \
  "report names the bad --scaling-kinds"
[ -e "$tmp/rep2" ] && fail "a report refused for its flags made its folder"

# Change scripts: replayed, verified against full rebuilds, bad ones named.
cat >"$tmp/changes.txt" <<'SCRIPT'
# close a door, build a wall, open it again
cell 9 9 blocked
apply door
rect 30 0 2 40 0   # wall
apply wall
query 1 1 62 46
scatter 0.02 3 5
rect 30 0 2 40 1
SCRIPT
expect_exit 0 "changes" "$zp" changes "$tmp/rooms.zpw" "$tmp/changes.txt" \
  --fleet 30 --rebuild --verify
expect_grep "apply 'wall' -> version 2" "$tmp/out" "changes applies named batches"
expect_grep "same bytes" "$tmp/out" "changes verifies against a rebuild"
expect_grep "apply 'end of script' -> version 3" "$tmp/out" \
  "changes applies what is left at the end"
expect_grep "query (1,1) -> (62,46) on version 2" "$tmp/out" \
  "changes plans queries on the current version"
expect_grep "units: .* of 30 affected" "$tmp/out" "changes repairs the fleet"
expect_exit 0 "changes --json" "$zp" changes "$tmp/rooms.zpw" \
  "$tmp/changes.txt" --fleet 10 --json
for key in applies queries zones_searched apply_ms spliced replan_ms_median \
  cost_ratio_max; do
  expect_grep "\"$key\":" "$tmp/out" "changes --json has $key"
done
printf 'cell 1 1 0\nrect 60 40 10 10 0\n' >"$tmp/outside.txt"
expect_exit 1 "changes outside the map" "$zp" changes "$tmp/rooms.zpw" \
  "$tmp/outside.txt"
expect_grep "outside.txt:2:" "$tmp/err" "script error names file and line"
printf 'cell 1 1 300\n' >"$tmp/badcost.txt"
expect_exit 1 "changes with a bad cost" "$zp" changes "$tmp/rooms.zpw" \
  "$tmp/badcost.txt"
expect_grep "badcost.txt:1: cost '300'" "$tmp/err" "bad cost named"
printf 'teleport 1 1\n' >"$tmp/badcmd.txt"
expect_exit 1 "changes with an unknown command" "$zp" changes \
  "$tmp/rooms.zpw" "$tmp/badcmd.txt"
expect_exit 1 "changes --verify without --rebuild" "$zp" changes \
  "$tmp/rooms.zpw" "$tmp/changes.txt" --verify

if [ "$failures" -eq 0 ]; then echo "cli_test: all checks passed"; fi
exit $((failures > 0))
