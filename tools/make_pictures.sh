#!/usr/bin/env bash
# Regenerates the README pictures in docs/pictures from worlds built out of
# the repository's own data (no shared maps needed):
#   tools/make_pictures.sh [ZONEPATH_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
zp=${1:-build/tools/zonepath/zonepath}
out=docs/pictures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# Weighted terrain (the demo map): zones, beacons, and one smoothed path.
"$zp" build data/demo_terrain_512.map -o "$tmp/terrain.zpw" >/dev/null
"$zp" render "$tmp/terrain.zpw" -o "$out/terrain_zones_path.png" --zones \
  --beacons --path 20,490,495,25 --smooth --scale 1
# Exact A* (left) beside HPA* (right) with the cells each one expanded.
"$zp" gen "$tmp/rooms.map" --kind rooms --width 384 --height 384 --seed 7 \
  >/dev/null
"$zp" build "$tmp/rooms.map" -o "$tmp/rooms.zpw" >/dev/null
"$zp" render "$tmp/rooms.zpw" -o "$out/rooms_astar_vs_hpa.png" --compare \
  --explored --zones --path 5,5,378,378 --smooth --scale 2
# The level-1 abstract graph of a corner of the rooms world.
"$zp" render "$tmp/rooms.zpw" -o "$out/rooms_graph.png" --graph --beacons \
  --region 0,0,128,128 --scale 4
ls -l "$out"
