#!/usr/bin/env bash
# End-to-end checks of the tool's agent flags (--agents FILE --agent CLASS):
# scen plans for a 3x3 class on its class grid, check-paths re-walks the
# footprint on the terrain (and rejects a 1x1 unit's path for the 3x3
# class), build makes a per-class world that query checks against the
# terrain; bad agent files and unknown
# classes exit 1 with the file, line and field named.
# usage: agents_cli_test.sh ZONEPATH_BINARY EXAMPLE_AGENTS_FILE
set -u
zp="$1"
agents="$2"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

# 24 x 12: ground, a road, a forest block, and a wall at x = 12 with a gap
# of width 1 (y = 2) and one of width 3 (y = 7..9).
{
  printf 'type octile\nheight 12\nwidth 24\nmap\n'
  for y in $(seq 0 11); do
    row=""
    for x in $(seq 0 23); do
      c="."
      if [ "$x" -ge 4 ] && [ "$x" -le 6 ] && [ "$y" -le 3 ]; then c="T"; fi
      if [ "$y" -eq 10 ]; then c="="; fi
      if [ "$x" -eq 12 ] && [ "$y" -ne 2 ] && { [ "$y" -lt 7 ] ||
        [ "$y" -gt 9 ]; }; then c="@"; fi
      row="$row$c"
    done
    printf '%s\n' "$row"
  done
} >"$tmp/a.map"
{
  printf 'version 1\n'
  printf '0\ta.map\t24\t12\t0\t0\t20\t1\t0\n'
  printf '1\ta.map\t24\t12\t1\t5\t18\t4\t0\n'
} >"$tmp/a.scen"

for algo in astar hpa; do
  expect_exit 0 "scen --agent tank ($algo)" "$zp" scen "$tmp/a.map" \
    "$tmp/a.scen" --agents "$agents" --agent tank --algo "$algo" \
    --paths "$tmp/tank_$algo.txt"
  expect_grep "2 solved" "$tmp/out" "tank solves both ($algo)"
  expect_exit 0 "check-paths --agent tank ($algo)" "$zp" check-paths \
    "$tmp/a.map" "$tmp/a.scen" "$tmp/tank_$algo.txt" --agents "$agents" \
    --agent tank
  expect_grep "2 legal with matching cost" "$tmp/out" "tank paths legal"
done
expect_exit 0 "scen --agent infantry" "$zp" scen "$tmp/a.map" "$tmp/a.scen" \
  --agents "$agents" --agent infantry --paths "$tmp/inf.txt"
expect_exit 0 "check-paths --agent infantry" "$zp" check-paths \
  "$tmp/a.map" "$tmp/a.scen" "$tmp/inf.txt" --agents "$agents" \
  --agent infantry
# The 1x1 unit takes the 1-wide gap: not legal for the 3x3 tank.
expect_exit 1 "check-paths: infantry path for the tank" "$zp" check-paths \
  "$tmp/a.map" "$tmp/a.scen" "$tmp/inf.txt" --agents "$agents" --agent tank
expect_grep "is not legal" "$tmp/err" "footprint violation named"

expect_exit 0 "build --agent tank" "$zp" build "$tmp/a.map" \
  -o "$tmp/tank.zpw" --agents "$agents" --agent tank --zone-size 4
expect_exit 0 "query on the tank world" "$zp" query "$tmp/tank.zpw" 0 0 20 1
expect_exit 0 "scen --world tank world" "$zp" scen "$tmp/a.map" \
  "$tmp/a.scen" --agents "$agents" --agent tank --algo hpa \
  --world "$tmp/tank.zpw" --paths "$tmp/tank_world.txt"
expect_exit 1 "scen: the tank world is not the truck's" "$zp" scen \
  "$tmp/a.map" "$tmp/a.scen" --agents "$agents" --agent truck --algo hpa \
  --world "$tmp/tank.zpw"

expect_exit 1 "unknown class" "$zp" build "$tmp/a.map" -o "$tmp/x.zpw" \
  --agents "$agents" --agent zeppelin
expect_grep "unknown agent class 'zeppelin'" "$tmp/err" "unknown class named"
expect_exit 1 "--agent without --agents" "$zp" scen "$tmp/a.map" \
  "$tmp/a.scen" --agent tank
expect_exit 1 "oriented class" "$zp" scen "$tmp/a.map" "$tmp/a.scen" \
  --agents "$agents" --agent ship
printf 'terrain ground 1 .\nclass big size 12 cost ground=1\n' \
  >"$tmp/bad.agents"
expect_exit 1 "bad agent file" "$zp" scen "$tmp/a.map" "$tmp/a.scen" \
  --agents "$tmp/bad.agents" --agent big
expect_grep "bad.agents:2: size" "$tmp/err" "agent file error names line"
expect_exit 1 "agent file is a device" "$zp" scen "$tmp/a.map" "$tmp/a.scen" \
  --agents /dev/zero --agent tank
head -c 2000000 /dev/zero | tr '\0' '#' >"$tmp/huge.agents"
expect_exit 1 "agent file too large" "$zp" scen "$tmp/a.map" "$tmp/a.scen" \
  --agents "$tmp/huge.agents" --agent tank
expect_grep "larger than" "$tmp/err" "size limit named"
if [ -e "$tmp/x.zpw" ]; then
  echo "FAIL: a failed build left $tmp/x.zpw"; failures=$((failures + 1))
fi
expect_exit 0 "query --agent tank checks the footprint" "$zp" query \
  "$tmp/tank.zpw" 0 0 20 1 --agents "$agents" --agent tank --terrain "$tmp/a.map"
expect_grep "footprint of class 'tank' checked" "$tmp/out" "query checks class"
expect_exit 1 "query: the tank world is not the truck's" "$zp" query \
  "$tmp/tank.zpw" 0 0 20 1 --agents "$agents" --agent truck \
  --terrain "$tmp/a.map"
expect_grep "not the world of class 'truck'" "$tmp/err" "wrong world named"
expect_exit 1 "query --agent without --terrain" "$zp" query "$tmp/tank.zpw" \
  0 0 20 1 --agents "$agents" --agent tank
expect_exit 0 "render --agent tank draws the footprint" "$zp" render \
  "$tmp/tank.zpw" -o "$tmp/tank.png" --path 0,0,20,1 --agents "$agents" \
  --agent tank --terrain "$tmp/a.map" --scale 4
if [ ! -s "$tmp/tank.png" ]; then
  echo "FAIL: render --agent wrote no PNG"; failures=$((failures + 1))
fi
expect_exit 1 "render: the tank world is not the truck's" "$zp" render \
  "$tmp/tank.zpw" -o "$tmp/truck.png" --path 0,0,20,1 --agents "$agents" \
  --agent truck --terrain "$tmp/a.map"
expect_grep "not the world of class 'truck'" "$tmp/err" "render names world"
expect_exit 2 "query takes no --legend" "$zp" query "$tmp/tank.zpw" 0 0 1 1 \
  --legend movingai

# One agent world for every class: built once, then each class planned by
# name; a class it lacks, a damaged file and a bad --classes list exit 1.
expect_exit 0 "build an agent world" "$zp" build "$tmp/a.map" \
  -o "$tmp/all.zpa" --agents "$agents" --zone-size 4 --json
expect_grep '"agent_world":true' "$tmp/out" "agent world JSON"
expect_grep '"name":"tank"' "$tmp/out" "tank class built"
expect_exit 0 "inspect the agent world" "$zp" inspect "$tmp/all.zpa"
expect_grep "valid zonepath agent world" "$tmp/out" "inspect names the kind"
expect_exit 0 "query --agent tank on the agent world" "$zp" query \
  "$tmp/all.zpa" 0 0 20 1 --agent tank
expect_grep "footprint of class 'tank' checked" "$tmp/out" \
  "agent world query checks the footprint"
expect_exit 0 "scen --world agent world --agent tank" "$zp" scen \
  "$tmp/a.map" "$tmp/a.scen" --agents "$agents" --agent tank --algo hpa \
  --world "$tmp/all.zpa" --paths "$tmp/tank_all.txt"
expect_grep "2 solved" "$tmp/out" "tank solves both on the agent world"
if ! cmp -s "$tmp/tank_all.txt" "$tmp/tank_world.txt"; then
  echo "FAIL: the agent world's tank paths differ from the tank world's"
  failures=$((failures + 1))
fi
expect_exit 0 "mem --agent tank on the agent world" "$zp" mem \
  "$tmp/all.zpa" --agent tank --units 4
expect_exit 0 "render --agent tank on the agent world" "$zp" render \
  "$tmp/all.zpa" -o "$tmp/all.png" --path 0,0,20,1 --agent tank --scale 4
# An oriented 1 x 2 cart: query follows its guide world under its rules;
# scen (unoriented classes only) refuses it.
cp "$agents" "$tmp/cart.agents"
printf 'class cart size 1x2 connectivity 4 cost ground=1,road=1 oriented yes backward 2 turn 1\n' \
  >>"$tmp/cart.agents"
expect_exit 0 "agent world with a cart" "$zp" build "$tmp/a.map" \
  -o "$tmp/cart.zpa" --agents "$tmp/cart.agents" --zone-size 4 \
  --classes tank,cart
expect_exit 0 "query --agent cart (oriented)" "$zp" query "$tmp/cart.zpa" \
  0 0 20 1 --agent cart
expect_grep "oriented class 'cart': rules checked" "$tmp/out" \
  "oriented query re-walked"
for algo in astar hpa; do
  world_flag=""
  if [ "$algo" = hpa ]; then world_flag="--world=$tmp/cart.zpa"; fi
  expect_exit 0 "scen --agent cart ($algo)" "$zp" scen "$tmp/a.map" \
    "$tmp/a.scen" --agents "$tmp/cart.agents" --agent cart --algo "$algo" \
    $world_flag --paths "$tmp/cart_$algo.txt"
  expect_grep "oriented class cart, 2 queries, 2 solved" "$tmp/out" \
    "cart solves both ($algo)"
  expect_exit 0 "check-paths --agent cart ($algo)" "$zp" check-paths \
    "$tmp/a.map" "$tmp/a.scen" "$tmp/cart_$algo.txt" \
    --agents "$tmp/cart.agents" --agent cart
  expect_grep "2 legal with matching cost" "$tmp/out" "cart paths legal"
done
# A turn dropped from the first path: illegal or elsewhere, never accepted.
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 1 { sub(/R1,|L1,/, "", $4) } { print }' \
  "$tmp/cart_hpa.txt" >"$tmp/cart_bad.txt"
if cmp -s "$tmp/cart_hpa.txt" "$tmp/cart_bad.txt"; then
  echo "FAIL: the first cart path has no turn to drop"; failures=$((failures + 1))
fi
expect_exit 1 "check-paths: a cart path without a turn" "$zp" check-paths \
  "$tmp/a.map" "$tmp/a.scen" "$tmp/cart_bad.txt" \
  --agents "$tmp/cart.agents" --agent cart
expect_exit 0 "render --agent cart (oriented) with --compare" "$zp" render \
  "$tmp/cart.zpa" -o "$tmp/cart.png" --path 0,0,20,1 --agent cart --compare \
  --scale 4
expect_grep "^hpa (0,0) -> (20,1): found, cost .* turns" "$tmp/out" \
  "oriented render plans with AgentPlanner"
expect_grep "^astar (0,0) -> (20,1): found, cost .* turns" "$tmp/out" \
  "oriented render compares with the exact search"
[ -s "$tmp/cart.png" ] || fail "render --agent cart wrote no PNG"
expect_exit 1 "unknown class on the agent world" "$zp" query \
  "$tmp/all.zpa" 0 0 20 1 --agent zeppelin
expect_grep "unknown agent class 'zeppelin'" "$tmp/err" "unknown class named"
expect_exit 0 "agent world of two classes" "$zp" build "$tmp/a.map" \
  -o "$tmp/two.zpa" --agents "$agents" --zone-size 4 --classes tank,truck
expect_exit 1 "a class left out of the build" "$zp" query "$tmp/two.zpa" \
  0 0 20 1 --agent infantry
expect_grep "left out of the build" "$tmp/err" "missing class named"
expect_exit 1 "--classes naming a class twice" "$zp" build "$tmp/a.map" \
  -o "$tmp/y.zpa" --agents "$agents" --classes tank,tank
if [ -e "$tmp/y.zpa" ]; then
  echo "FAIL: a failed agent build left $tmp/y.zpa"; failures=$((failures + 1))
fi
cp "$tmp/all.zpa" "$tmp/cut.zpa"
truncate -s 9000 "$tmp/cut.zpa"
expect_exit 1 "truncated agent world" "$zp" query "$tmp/cut.zpa" 0 0 20 1 \
  --agent tank
expect_grep "cut.zpa" "$tmp/err" "truncated file named"

if [ "$failures" -eq 0 ]; then echo "agents_cli_test: all checks passed"; fi
exit $((failures > 0))
