// libFuzzer target for the structure-aware world-file fuzzer: the custom
// mutator rewrites fields of a world file and repairs its checksums
// (world_mutation.h); each input that loads is queried and every found path
// walked. Seeds come from world_mutant_run's seed worlds (make_seed_world
// --all DIR) and tests/fuzz/corpus.
//   build-fuzz/tests/world_mutant_fuzz -max_total_time=30 CORPUS_DIR
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "world_mutation.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed) {
  static const std::vector<std::string> seeds = zonepath::fuzz::SeedWorlds();
  std::mt19937_64 rng(seed);
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (size < 64 || rng() % 16 == 0) bytes = seeds[rng() % seeds.size()];
  if (rng() % 8 == 0) {  // plain byte mutation, then checksums repaired
    const size_t n = bytes.size();
    bytes.resize(std::max(n, max_size));
    bytes.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(bytes.data()), n,
                                  bytes.size()));
    zonepath::fuzz::RepairChecksums(&bytes);
  } else {
    zonepath::fuzz::MutateWorldBytes(rng, &bytes);
  }
  if (bytes.size() > max_size) return size;
  std::memcpy(data, bytes.data(), bytes.size());
  return bytes.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::mt19937_64 rng(size);
  const zonepath::fuzz::MutantResult r =
      zonepath::fuzz::CheckMutant(bytes, rng);
  if (r.illegal_paths > 0) {
    std::fprintf(stderr, "illegal path: %s\n", r.first_problem.c_str());
    __builtin_trap();
  }
  return 0;
}
