#!/usr/bin/env bash
# Installs the built zonepath into a temporary prefix, then configures, builds
# and runs tests/consumer/project against it with find_package(zonepath).
# The project is configured with Boost hidden: a consumer of the runtime
# modules (runtime, update) must not need it. Its runtime program loads a
# world file built here by the zonepath tool, opens a door and plans again.
# usage: consumer_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
src="$2"
tool="$build/tools/zonepath/zonepath"
if [[ ! -x "$tool" ]]; then
  echo "consumer_test: $tool is missing (build the zonepath target)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/tests/consumer/project" -B "$tmp/build" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON >/dev/null
cmake --build "$tmp/build" -j2 >/dev/null
"$tmp/build/consumer" | tee "$tmp/out"
grep -q "consumer: N1,E3,S1 cost 5.000" "$tmp/out"

printf '%s\n' "type octile" "height 6" "width 12" "map" \
  "............" "............" ".....@......" ".....@......" \
  ".....@......" ".....@......" > "$tmp/door.map"
"$tool" build "$tmp/door.map" -o "$tmp/door.zpw" --zone-size 4 >/dev/null
"$tmp/build/consumer_runtime" "$tmp/door.zpw" | tee "$tmp/runtime_out"
# Around the wall first; straight through the opened door after.
grep -q "consumer_runtime before: .* cost 1[0-9]\." "$tmp/runtime_out"
grep -q "consumer_runtime after: E6 cost 6.000" "$tmp/runtime_out"
# The C API from C, on the shared library: the world and an agent world of
# the same map (the wagon, an oriented 1 x 2, arrives facing E).
"$tool" build "$tmp/door.map" -o "$tmp/door.zpa" --zone-size 4 \
  --agents "$src/data/agents/example.agents" --classes wagon >/dev/null
"$tmp/build/consumer_c" "$tmp/door.zpw" "$tmp/door.zpa" | tee "$tmp/c_out"
grep -q "consumer_c world: found, [0-9]* steps, cost 1[0-9]\." "$tmp/c_out"
grep -q "consumer_c wagon: found, [0-9]* steps, [1-9][0-9]* turns" "$tmp/c_out"
# Nothing of Boost or the offline builder got linked in.
if nm -C "$tmp/build/consumer_runtime" | grep -q -e boost:: -e BuildWorld; then
  echo "consumer_test: consumer_runtime links Boost or the builder" >&2
  exit 1
fi
