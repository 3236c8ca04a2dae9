#!/usr/bin/env bash
# Hostile input (issue 16), one case per class at least: exact exit codes
# (1 bad input, 2 usage) and messages that name the file and the field.
# usage: hostile_cli_test.sh ZONEPATH_BINARY WORLD_MUTANT_RUN CORPUS_DIR
set -u
zp="$1"
mutant_run="$2"
corpus="$3"
# shellcheck source=../cli/expect.sh
source "$(dirname "$0")/../cli/expect.sh"

"$zp" gen "$tmp/rooms.map" --kind rooms --width 64 --height 48 --seed 3 \
  --feature 8 >/dev/null || { echo "FAIL: gen"; exit 1; }
"$zp" build "$tmp/rooms.map" -o "$tmp/rooms.zpw" --zone-size 8 \
  >/dev/null 2>&1 || { echo "FAIL: build"; exit 1; }
printf 'version 1\n0\trooms.map\t64\t48\t1\t1\t60\t40\t0\n' \
  >"$tmp/rooms.scen"

# Class 1: world files with valid checksums but inconsistent content. Every
# saved mutant (each crashed or gave an illegal path before the loader
# checked consistency) is refused or planned on legally.
expect_exit 0 "corpus replay" "$mutant_run" "$corpus"/*.zpw
expect_grep "illegal paths in 0" "$tmp/out" "corpus replay result"
# A zone cut behind a level-1 edge (found by the mutator): loading leaves
# that O(cells) check to `inspect --verify`; queries answer with a legal
# path or a status (DataLoss), never an illegal path.
expect_exit 0 "many queries on a zone cut behind its edge" "$mutant_run" \
  --queries=1500 "$corpus/illegal-2026-896839.zpw"
expect_grep "loaded 1, illegal paths in 0" "$tmp/out" "cut zone queries"
expect_exit 1 "inspect --verify on a zone cut behind its edge" "$zp" inspect \
  --verify "$corpus/illegal-2026-896839.zpw"
expect_grep "are not connected inside their zone" "$tmp/err" \
  "inspect --verify message"
expect_exit 1 "query on a mutant with a moved beacon" "$zp" query \
  "$corpus/illegal-1-270.zpw" 22 4 18 24
expect_grep "illegal-1-270.zpw: level 1 section edges: edge" "$tmp/err" \
  "class 1 message names file, level, section and edge"

# Class 2: non-regular files as input.
mkdir "$tmp/dir.zpw" "$tmp/dir.map"
mkfifo "$tmp/fifo.zpw" "$tmp/fifo.map"
expect_exit 1 "directory as world" "$zp" query "$tmp/dir.zpw" 1 1 2 2
expect_grep "dir.zpw: is a directory, not a regular file" "$tmp/err" \
  "directory world message"
expect_exit 1 "FIFO as world (no hang)" "$zp" inspect "$tmp/fifo.zpw"
expect_grep "fifo.zpw: is a FIFO" "$tmp/err" "FIFO world message"
expect_exit 1 "/dev/zero as world" "$zp" inspect /dev/zero
expect_grep "/dev/zero: is a character device" "$tmp/err" "/dev/zero message"
expect_exit 1 "directory as map" "$zp" build "$tmp/dir.map" -o "$tmp/x.zpw"
expect_grep "dir.map: is a directory" "$tmp/err" "directory map message"
expect_exit 1 "FIFO as scenario" "$zp" scen "$tmp/rooms.map" "$tmp/fifo.map"
expect_grep "fifo.map: is a FIFO" "$tmp/err" "FIFO scenario message"
expect_exit 1 "/dev/zero as change script" "$zp" changes "$tmp/rooms.zpw" \
  /dev/zero
expect_grep "/dev/zero: is a character device" "$tmp/err" \
  "/dev/zero script message"
head -c 2000000 /dev/zero | tr '\0' '.' >"$tmp/long.map"
expect_exit 1 "a 2 MB line" "$zp" build "$tmp/long.map" -o "$tmp/x.zpw"
expect_grep "long.map:1: line longer than" "$tmp/err" "long line message"

# Class 3: numeric flags out of range are usage errors, checked before use.
expect_exit 2 "build --threads 10000" "$zp" build "$tmp/rooms.map" \
  -o "$tmp/x.zpw" --threads 10000
expect_grep "threads must be in 0..256" "$tmp/err" "build threads message"
printf 'cell 3 3 0\napply\n' >"$tmp/script.txt"
expect_exit 2 "changes --threads 10000" "$zp" changes "$tmp/rooms.zpw" \
  "$tmp/script.txt" --threads 10000
expect_grep "threads must be in 1..256" "$tmp/err" "changes threads message"
expect_exit 2 "render --scale 2^-32" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/x.png" --scale 2.3283064365386963e-10 --zones
expect_grep "scale must be" "$tmp/err" "render scale message"
expect_exit 2 "render --region X overflow" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/x.png" --region 2147483647,0,10,10
expect_exit 2 "render --region W overflow" "$zp" render "$tmp/rooms.zpw" \
  -o "$tmp/x.png" --region 10,0,2147483647,1
expect_grep "is not inside the 64x48 world" "$tmp/err" "render region message"
expect_exit 2 "mem --units 1e10" "$zp" mem "$tmp/rooms.zpw" \
  --units 10000000000
expect_grep "units must be in 0..1000000" "$tmp/err" "mem units message"
expect_exit 2 "scen --weight 0.5" "$zp" scen "$tmp/rooms.map" \
  "$tmp/rooms.scen" --weight 0.5
expect_grep "weight must be a number >= 1" "$tmp/err" "weight message"
expect_exit 2 "gen beyond the size limits" "$zp" gen "$tmp/x.map" \
  --width 70000 --height 10
# Work that needs more memory than allowed is refused up front, naming the
# bytes: --memory_limit stands in for a small machine (gen: 4 bytes a cell;
# build: 4.5 bytes per map byte; loading: the file's size), and nothing is
# written.
expect_exit 1 "gen over --memory_limit" "$zp" gen "$tmp/limited.map" \
  --width 1000 --height 1000 --memory_limit 3999999
expect_grep "a 1000x1000 map needs about 4000000 bytes of memory, 3999999 bytes are allowed (--memory_limit)" \
  "$tmp/err" "gen memory-limit message"
[ ! -e "$tmp/limited.map" ] || fail "gen over its limit wrote a map"
"$zp" gen "$tmp/limited.map" --width 1000 --height 1000 \
  --memory_limit 4000000 > /dev/null || fail "gen within its limit"
map_bytes=$(stat -c %s "$tmp/limited.map")
expect_exit 1 "build over --memory_limit" "$zp" build "$tmp/limited.map" \
  -o "$tmp/limited.zpw" --memory_limit $((map_bytes / 2 * 9 - 1))
expect_grep "building a world from $tmp/limited.map needs about $((map_bytes / 2 * 9)) bytes of memory" \
  "$tmp/err" "build memory-limit message"
[ ! -e "$tmp/limited.zpw" ] || fail "build over its limit wrote a world"
world_bytes=$(stat -c %s "$tmp/rooms.zpw")
expect_exit 1 "loading over --memory_limit" "$zp" inspect "$tmp/rooms.zpw" \
  --memory_limit $((world_bytes - 1))
expect_grep "the world needs about $world_bytes bytes of memory, $((world_bytes - 1)) are available" \
  "$tmp/err" "load memory-limit message"
"$zp" inspect "$tmp/rooms.zpw" --memory_limit "$world_bytes" > /dev/null ||
  fail "loading within its limit"
# 65536 x 65535 cells at gen's 4 bytes a cell: 17179607040 bytes.
if [ "$(awk '/MemAvailable/ {print $2}' /proc/meminfo)" -lt 16776960 ]; then
  expect_exit 1 "gen needing more memory than is available" "$zp" gen \
    "$tmp/x.map" --width 65536 --height 65535
  expect_grep "needs about 17179607040 bytes of memory" "$tmp/err" \
    "gen memory message"
fi

# Class 4: answers accepted but wrong.
expect_exit 2 "query --connectivity (a world decides)" "$zp" query \
  "$tmp/rooms.zpw" 1 1 5 5 --connectivity 6
expect_grep "unknown flag '--connectivity'" "$tmp/err" "query connectivity"
expect_exit 2 "inspect --legend" "$zp" inspect "$tmp/rooms.zpw" --legend bogus
expect_exit 2 "scen --world without --algo hpa" "$zp" scen "$tmp/rooms.map" \
  "$tmp/rooms.scen" --world "$tmp/rooms.zpw"
expect_exit 1 "scen --connectivity 4 on an 8-connected world" "$zp" scen \
  "$tmp/rooms.map" "$tmp/rooms.scen" --algo hpa --world "$tmp/rooms.zpw" \
  --connectivity 4
expect_grep "rooms.zpw: the world is 8-connected, --connectivity says 4" \
  "$tmp/err" "connectivity mismatch message"
"$zp" scen "$tmp/rooms.map" "$tmp/rooms.scen" --paths "$tmp/paths.txt" \
  >/dev/null || { echo "FAIL: scen --paths"; failures=$((failures + 1)); }
for cost in nan inf -1; do
  awk -v c="$cost" 'BEGIN {FS = OFS = "\t"} NR == 1 {$3 = c} {print}' \
    "$tmp/paths.txt" >"$tmp/bad_paths.txt"
  expect_exit 1 "check-paths cost $cost" "$zp" check-paths "$tmp/rooms.map" \
    "$tmp/rooms.scen" "$tmp/bad_paths.txt"
  expect_grep "bad_paths.txt:1: cost $cost is not a finite number" \
    "$tmp/err" "check-paths cost $cost message"
done
awk 'BEGIN {FS = OFS = "\t"} NR == 1 {$2 = "unreachable"} {print}' \
  "$tmp/paths.txt" >"$tmp/bad_paths.txt"
expect_exit 1 "check-paths false unreachable claim" "$zp" check-paths \
  "$tmp/rooms.map" "$tmp/rooms.scen" "$tmp/bad_paths.txt"
expect_grep "bad_paths.txt:1: claims unreachable, but" "$tmp/err" \
  "unreachable claim message"
awk 'BEGIN {FS = OFS = "\t"} NR == 1 {$4 = "Q9"} {print}' \
  "$tmp/paths.txt" >"$tmp/bad_paths.txt"
expect_exit 1 "check-paths bad moves" "$zp" check-paths "$tmp/rooms.map" \
  "$tmp/rooms.scen" "$tmp/bad_paths.txt"
expect_grep "bad_paths.txt:1: moves: " "$tmp/err" "moves error has FILE:LINE"
printf 'type octile\nheight 2\nheight 2\nwidth 2\nmap\n..\n..\n' >"$tmp/dup.map"
expect_exit 1 "duplicate height line" "$zp" build "$tmp/dup.map" -o "$tmp/x.zpw"
expect_grep "dup.map:3: duplicate 'height' line" "$tmp/err" "duplicate header"
for length in 0x10 1e308 inf nan; do
  printf 'version 1\n0\trooms.map\t64\t48\t1\t1\t9\t9\t%s\n' "$length" \
    >"$tmp/len.scen"
  expect_exit 1 "scenario length $length" "$zp" scen "$tmp/rooms.map" \
    "$tmp/len.scen"
  expect_grep "len.scen:2: optimal length must be a decimal number" \
    "$tmp/err" "scenario length $length message"
done

# Class 5: outputs replace only regular files.
ln -s "$tmp/target" "$tmp/link.zpw"
expect_exit 1 "output over a symlink" "$zp" build "$tmp/rooms.map" \
  -o "$tmp/link.zpw" --zone-size 8
expect_grep "link.zpw: output path is a symbolic link" "$tmp/err" \
  "symlink output message"
expect_exit 1 "output over a FIFO" "$zp" build "$tmp/rooms.map" \
  -o "$tmp/fifo.zpw" --zone-size 8
expect_grep "fifo.zpw: output path is a FIFO" "$tmp/err" "FIFO output message"
expect_exit 1 "output to /dev/full" "$zp" build "$tmp/rooms.map" \
  -o /dev/full --zone-size 8
expect_grep "output path is a character device" "$tmp/err" \
  "/dev/full output message"
if ls "$tmp"/*.tmp.* >/dev/null 2>&1; then
  echo "FAIL: temporary files left behind: $(ls "$tmp"/*.tmp.*)"
  failures=$((failures + 1))
fi

# Class 6: messages escape raw bytes and a BOM.
printf '\xef\xbb\xbftype octile\nheight 2\nwidth 2\nmap\n..\n..\n' \
  >"$tmp/bom.map"
expect_exit 1 "map with a BOM" "$zp" build "$tmp/bom.map" -o "$tmp/x.zpw"
expect_grep 'bom.map:1: .*\\357\\273\\277type' "$tmp/err" "BOM is escaped"

if [ "$failures" -gt 0 ]; then
  echo "$failures hostile-input check(s) failed"
  exit 1
fi
echo "all hostile-input checks passed"
