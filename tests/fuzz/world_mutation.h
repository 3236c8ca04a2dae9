// Structure-aware world-file mutation for fuzzing the loader and the
// planner behind it: rewrite one field of a valid world file (a header
// parameter, a section-table entry, or one element of a section, picked and
// changed with the section's type in mind), then repair every CRC-32 so the
// mutant gets past the checksums to the consistency checks and, if it loads,
// to the planner. Every world that loads is then queried and each returned
// path is checked with the independent walker (WalkPath).
//
//   std::mt19937_64 rng(seed);
//   std::string mutant = seed_bytes;
//   zonepath::fuzz::MutateWorldBytes(rng, &mutant);   // CRCs repaired
//   zonepath::fuzz::MutantResult r = zonepath::fuzz::CheckMutant(mutant, rng);
//   if (r.illegal_paths > 0) report(r.first_problem);
#ifndef ZONEPATH_TESTS_FUZZ_WORLD_MUTATION_H_
#define ZONEPATH_TESTS_FUZZ_WORLD_MUTATION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace zonepath::fuzz {

// Byte offset of element `index` (of `element_bytes` each) of section
// (kind, level) (world_format::SectionKind), or nullopt if there is no such
// section or element.
std::optional<size_t> ElementOffset(const std::string& bytes, uint32_t kind,
                                    uint32_t level, uint64_t index,
                                    size_t element_bytes);

// Recomputes every section CRC and the header CRC in place (sections whose
// table entry lies outside the file are left alone).
void RepairChecksums(std::string* bytes);

// Applies one structured mutation, then repairs the checksums. Returns a
// short description ("level 1 edges[17].target = 9") for reports.
std::string MutateWorldBytes(std::mt19937_64& rng, std::string* bytes);

struct MutantResult {
  bool loaded = false;
  int64_t queries = 0;
  int64_t found = 0;
  int64_t unreachable = 0;
  int64_t errors = 0;         // queries that returned a status (allowed)
  int64_t illegal_paths = 0;  // found paths failing the walker: a bug
  std::string first_problem;  // what the first illegal path did
};

// Loads `bytes` (checksums verified) and, if that succeeds, runs `queries`
// random start/goal pairs with FindPath without and with smoothing,
// checking every found path: legal, from start to goal, reported cost equal
// to the walked cost.
MutantResult CheckMutant(const std::string& bytes, std::mt19937_64& rng,
                         int queries = 3);

// Small valid world files of different shapes (cached paths or not, 4- or
// 8-connected, 1 to 3 levels, weighted terrain): the mutation seeds.
std::vector<std::string> SeedWorlds();

}  // namespace zonepath::fuzz

#endif  // ZONEPATH_TESTS_FUZZ_WORLD_MUTATION_H_
