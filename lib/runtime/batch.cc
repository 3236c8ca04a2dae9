#include "zonepath/runtime/batch.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace zonepath {

void PlanBatch(const World& world, absl::Span<const BatchQuery> queries,
               const PlanOptions& options, int threads,
               std::vector<BatchResult>* results) {
  if (threads <= 0) {
    threads =
        static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  threads =
      std::max(1, std::min<int>(threads, static_cast<int>(queries.size())));
  results->resize(queries.size());
  std::atomic<size_t> next{0};
  auto work = [&]() {
    Planner planner(world);
    for (size_t i = next++; i < queries.size(); i = next++) {
      BatchResult& r = (*results)[i];
      absl::StatusOr<SearchOutcome> outcome =
          planner.FindPath(queries[i].start, queries[i].goal, options, &r.path);
      r.status = outcome.status();
      r.outcome = outcome.ok() ? *outcome : SearchOutcome::kUnreachable;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace zonepath
