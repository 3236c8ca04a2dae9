// Long-run driver for the structure-aware world-file fuzzer: N mutants from
// a seed, each loaded and (if it loads) queried, every found path checked
// with the walker. Deterministic: mutant i of seed S is the same on every
// run, so a failure is reproduced with --first=i --mutants=1. A crash or a
// hang (--timeout seconds per mutant) writes the mutant to --corpus first.
//
//   world_mutant_run --mutants=1000000 --seed=1 --corpus=tests/fuzz/corpus
//   world_mutant_run tests/fuzz/corpus/*.zpw     # replay saved inputs
//
// Prints one summary line; exits 1 if any path was illegal.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "world_mutation.h"

ABSL_FLAG(int64_t, mutants, 10000, "mutants to try");
ABSL_FLAG(uint64_t, seed, 1, "run seed");
ABSL_FLAG(int64_t, first, 0, "index of the first mutant (to reproduce one)");
ABSL_FLAG(int, queries, 3, "start/goal pairs per loaded mutant (x2: smoothed)");
ABSL_FLAG(std::string, corpus, "", "directory for failing mutants");
ABSL_FLAG(bool, verbose, false, "print each mutant's mutations first");
ABSL_FLAG(int, timeout, 20, "seconds per mutant before it counts as a hang");

namespace {

// For the signal handler: the mutant being checked and where to keep it.
const std::string* current_bytes = nullptr;
char current_path[4096] = "";

void SaveCurrent() {
  if (current_bytes == nullptr || current_path[0] == '\0') return;
  const int fd = open(current_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  const char* p = current_bytes->data();
  size_t left = current_bytes->size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
  close(fd);
}

void OnFatalSignal(int sig) {
  SaveCurrent();
  static const char kMessage[] =
      "world_mutant_run: fatal signal; mutant saved to ";
  (void)!write(2, kMessage, sizeof(kMessage) - 1);
  (void)!write(2, current_path, strlen(current_path));
  (void)!write(2, "\n", 1);
  signal(sig, SIG_DFL);
  raise(sig == SIGALRM ? SIGABRT : sig);
}

}  // namespace

// Checks saved inputs; 0 if none crashes or gives an illegal path.
int Replay(const std::vector<char*>& files) {
  int loaded = 0, failed = 0;
  for (size_t i = 1; i < files.size(); ++i) {
    std::ifstream in(files[i], std::ios::binary);
    std::ostringstream text;
    if (!in || !(text << in.rdbuf())) {
      std::fprintf(stderr, "%s: cannot read\n", files[i]);
      return 1;
    }
    const std::string bytes = std::move(text).str();
    current_bytes = &bytes;
    std::mt19937_64 rng(bytes.size());
    const zonepath::fuzz::MutantResult r =
        zonepath::fuzz::CheckMutant(bytes, rng);
    loaded += r.loaded;
    if (r.illegal_paths > 0) {
      ++failed;
      std::fprintf(stderr, "%s: %s\n", files[i], r.first_problem.c_str());
    }
  }
  std::printf(
      "replayed %zu inputs: loaded %d, illegal paths in %d, crashes 0\n",
      files.size() - 1, loaded, failed);
  return failed > 0 ? 1 : 0;
}

int main(int argc, char** argv) {
  const std::vector<char*> files = absl::ParseCommandLine(argc, argv);
  const int64_t count = absl::GetFlag(FLAGS_mutants);
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  const int64_t first = absl::GetFlag(FLAGS_first);
  const std::string corpus = absl::GetFlag(FLAGS_corpus);
  const int timeout = absl::GetFlag(FLAGS_timeout);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM}) {
    signal(sig, OnFatalSignal);
  }
  if (files.size() > 1) return Replay(files);
  const std::vector<std::string> seeds = zonepath::fuzz::SeedWorlds();
  if (seeds.empty()) {
    std::fprintf(stderr, "world_mutant_run: could not build the seed worlds\n");
    return 1;
  }
  zonepath::fuzz::MutantResult total;
  int64_t loaded = 0, unchanged = 0;
  const absl::Time begin = absl::Now();
  for (int64_t i = first; i < first + count; ++i) {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull +
                        static_cast<uint64_t>(i));
    const std::string& base = seeds[static_cast<size_t>(i) % seeds.size()];
    std::string bytes = base;
    std::string what;
    const int mutations = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < mutations; ++m) {
      absl::StrAppend(&what, m ? "; " : "",
                      zonepath::fuzz::MutateWorldBytes(rng, &bytes));
    }
    if (bytes == base) ++unchanged;
    if (absl::GetFlag(FLAGS_verbose)) {
      std::fprintf(stderr, "mutant %lld: %s\n", static_cast<long long>(i),
                   what.c_str());
    }
    current_bytes = &bytes;
    if (!corpus.empty()) {
      std::snprintf(current_path, sizeof(current_path),
                    "%s/crash-%llu-%lld.zpw", corpus.c_str(),
                    static_cast<unsigned long long>(seed),
                    static_cast<long long>(i));
    }
    alarm(static_cast<unsigned>(timeout));
    const zonepath::fuzz::MutantResult r =
        zonepath::fuzz::CheckMutant(bytes, rng, absl::GetFlag(FLAGS_queries));
    alarm(0);
    loaded += r.loaded;
    total.queries += r.queries;
    total.found += r.found;
    total.unreachable += r.unreachable;
    total.errors += r.errors;
    total.illegal_paths += r.illegal_paths;
    if (r.illegal_paths > 0) {
      std::fprintf(stderr, "mutant %lld (%s): %s\n", static_cast<long long>(i),
                   what.c_str(), r.first_problem.c_str());
      if (!corpus.empty()) {
        std::ofstream(absl::StrCat(corpus, "/illegal-", seed, "-", i, ".zpw"),
                      std::ios::binary)
            << bytes;
      }
    }
  }
  std::printf(
      "mutants %lld (seed %llu, first %lld): loaded %lld, rejected %lld, "
      "unchanged %lld; queries %lld: found %lld, unreachable %lld, error "
      "status %lld; illegal paths %lld; crashes 0, hangs 0; %.1f s\n",
      static_cast<long long>(count), static_cast<unsigned long long>(seed),
      static_cast<long long>(first), static_cast<long long>(loaded),
      static_cast<long long>(count - loaded), static_cast<long long>(unchanged),
      static_cast<long long>(total.queries),
      static_cast<long long>(total.found),
      static_cast<long long>(total.unreachable),
      static_cast<long long>(total.errors),
      static_cast<long long>(total.illegal_paths),
      absl::ToDoubleSeconds(absl::Now() - begin));
  return total.illegal_paths > 0 ? 1 : 0;
}
