#!/usr/bin/env bash
# zonepath's two commands, for a fresh Debian machine or a warm checkout:
#   ./run.sh demo    install what is missing, build, run the main job
#   ./run.sh test    install what is missing, build, run the whole test suite
# Also: ./run.sh bench [benchmark args]   (Google Benchmark, not a test)
set -euo pipefail
cd "$(dirname "$0")"

packages=(cmake g++ make libabsl-dev libboost-graph-dev libgtest-dev
          libgmock-dev libbenchmark-dev nlohmann-json3-dev libpng-dev
          clang-format clang libclang-rt-14-dev python3 python3-dev
          python3-pybind11 pybind11-dev python3-numpy python3-pytest
          python3-matplotlib)
jobs=$(nproc 2>/dev/null || echo 2)
# The Python package is built for Debian's interpreter (its NumPy and
# pybind11), not whatever python3 comes first on PATH (e.g. pyenv's).
python_build=(-DZONEPATH_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3)
# The sanitizer builds: -O1, as the sanitizers' documentation suggests
# (zonepath_project_options adds the line tables, -g1): the ASan + UBSan
# tree compiles in ~60 % of the time of -O2 -g, its tests run ~10 % slower
# (README, "The test command's time").
sanitizer_build=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
                 "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG"
                 "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -DNDEBUG"
                 -DZONEPATH_BUILD_BENCH=OFF)

ensure_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "== installing: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

# build DIR [cmake args...]
# build DIR [cmake args...] [--target T...]
build() {
  local dir=$1
  shift
  local configure=() targets=()
  while [ $# -gt 0 ]; do
    if [ "$1" = --target ]; then
      shift
      targets=(--target "$@")
      break
    fi
    configure+=("$1")
    shift
  done
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs" "${targets[@]}"
}

check_format() {
  local files
  files=$(git ls-files '*.h' '*.cc' 2>/dev/null || find lib tools tests bench -name '*.h' -o -name '*.cc')
  # shellcheck disable=SC2086
  clang-format --dry-run --Werror $files
  echo "== clang-format: all files formatted"
}

# libFuzzer smoke runs (clang and libclang-rt-14-dev come with `packages`,
# so this never skips): the world loader 30 s, the structure-aware world
# mutator (queries every mutant that loads) 20 s, agent worlds (plans every
# class of each one that loads) 15 s, each path decoder and
# text reader (.map, .scen, change scripts, agent files) 10 s, each seeded with
# tests/fuzz/corpus, the inputs that once failed.
fuzz_smoke() {
  if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
    >/dev/null 2>&1; then
    echo "== libFuzzer runtime missing (libclang-rt-14-dev)" >&2
    return 1
  fi
  echo "== fuzzing the world loader (30 s), world mutants (20 s), agent"
  echo "   worlds (15 s), each path decoder and text reader (10 s)"
  local decoders="run_length turns waypoints raw_cells" targets="" d
  local readers="map_reader scenario_reader change_script agent_file"
  for d in $decoders; do targets="$targets path_decoder_fuzz_$d"; done
  for d in $readers; do targets="$targets ${d}_fuzz"; done
  # shellcheck disable=SC2086
  CXX=clang++ build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DZONEPATH_FUZZ=ON -DZONEPATH_BUILD_BENCH=OFF -DZONEPATH_BUILD_TOOLS=OFF \
    --target world_loader_fuzz world_mutant_fuzz make_seed_world \
    make_seed_paths agent_world_fuzz make_seed_agent_world $targets \
    >/dev/null
  local corpus
  corpus=$(mktemp -d)
  mkdir "$corpus/world" "$corpus/paths"
  build-fuzz/tests/make_seed_world "$corpus/world/seed.zpw" \
    "$corpus/world/seed_tables.zpw"
  build-fuzz/tests/make_seed_paths "$corpus/paths"
  cp tests/fuzz/corpus/*.zpw "$corpus/world/"
  (cd "$corpus/world" && "$OLDPWD/build-fuzz/tests/world_loader_fuzz" \
    -max_total_time=30 -rss_limit_mb=2048 -print_final_stats=0 . 2>&1 | tail -1)
  mkdir "$corpus/mutants"
  cp "$corpus"/world/* "$corpus/mutants/"
  (cd "$corpus/mutants" && "$OLDPWD/build-fuzz/tests/world_mutant_fuzz" \
    -max_total_time=20 -rss_limit_mb=2048 -print_final_stats=0 . 2>&1 | tail -1)
  mkdir "$corpus/agents"
  build-fuzz/tests/make_seed_agent_world data/agents/example.agents \
    "$corpus/agents/seed.zpa"
  (cd "$corpus/agents" && "$OLDPWD/build-fuzz/tests/agent_world_fuzz" \
    -max_total_time=15 -rss_limit_mb=2048 -print_final_stats=0 . 2>&1 | tail -1)
  mkdir "$corpus/text"
  cp data/*.map data/changes/*.txt data/agents/*.agents "$corpus/text/"
  printf 'version 1\n0\tm.map\t64\t48\t1\t1\t9\t9\t11.3\n' \
    >"$corpus/text/seed.scen"
  for d in $readers; do
    (cd "$corpus/text" && "$OLDPWD/build-fuzz/tests/${d}_fuzz" \
      -max_total_time=10 -max_len=4096 -rss_limit_mb=2048 \
      -print_final_stats=0 . 2>&1 | tail -1)
  done
  for d in $decoders; do
    mkdir "$corpus/$d"
    cp "$corpus"/paths/* "$corpus/$d/"
    (cd "$corpus/$d" && "$OLDPWD/build-fuzz/tests/path_decoder_fuzz_$d" \
      -max_total_time=10 -rss_limit_mb=2048 -print_final_stats=0 . 2>&1 |
      tail -1)
  done
  rm -rf "$corpus"
}

case "${1:-}" in
  demo)
    shift
    ensure_packages
    build build >/dev/null
    build/tools/zonepath/zonepath demo "$@"
    ;;
  test)
    ensure_packages
    check_format
    echo "== release build (with the Python package)"
    build build "${python_build[@]}"
    labels="unit|install|hostile"
    if [ -d ../shared/maps ]; then
      labels="unit|install|hostile|maps"
    else
      echo "== ../shared/maps not found: skipping the 'maps' test group"
    fi
    echo "== sanitizer build (address,undefined)"
    build build-asan "${sanitizer_build[@]}" \
      -DZONEPATH_SANITIZE=address,undefined
    echo "== unit and hostile-input tests under AddressSanitizer + UndefinedBehaviorSanitizer"
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --test-dir build-asan -L "unit|hostile" -j "$jobs" \
      --output-on-failure
    echo "== concurrency test under ThreadSanitizer"
    build build-tsan "${sanitizer_build[@]}" -DZONEPATH_SANITIZE=thread \
      -DZONEPATH_BUILD_TOOLS=OFF --target zonepath_concurrency_tests
    TSAN_OPTIONS=halt_on_error=1 build-tsan/tests/zonepath_concurrency_tests
    fuzz_smoke
    echo "== all tests (release): $labels"
    ctest --test-dir build -L "$labels" -j "$jobs" --output-on-failure
    ;;
  bench)
    shift
    ensure_packages
    build build >/dev/null
    build/bench/zonepath_bench "$@"
    ;;
  *)
    echo "usage: ./run.sh demo|test|bench [args]" >&2
    exit 2
    ;;
esac
