#!/usr/bin/env bash
# Installs the built zonepath into a temporary prefix, then configures, builds
# and runs tests/consumer/project against it with find_package(zonepath).
# usage: consumer_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S "$src/tests/consumer/project" -B "$tmp/build" \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/build" -j2 >/dev/null
"$tmp/build/consumer" | tee "$tmp/out"
grep -q "consumer: N1,E3,S1 cost 5.000" "$tmp/out"
