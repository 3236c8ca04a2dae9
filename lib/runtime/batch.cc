#include "zonepath/runtime/batch.h"

#include <algorithm>
#include <atomic>

#include "zonepath/base/parallel_chunks.h"

namespace zonepath {

void PlanBatch(const World& world, absl::Span<const BatchQuery> queries,
               const PlanOptions& options, int threads,
               std::vector<BatchResult>* results) {
  threads = std::max<int>(1, static_cast<int>(std::min<size_t>(
                                 ResolveThreads(threads), queries.size())));
  results->resize(queries.size());
  std::atomic<size_t> next{0};
  auto work = [&](int) {
    Planner planner(world);
    for (size_t i = next++; i < queries.size(); i = next++) {
      BatchResult& r = (*results)[i];
      absl::StatusOr<SearchOutcome> outcome =
          planner.FindPath(queries[i].start, queries[i].goal, options, &r.path);
      r.status = outcome.status();
      r.outcome = outcome.ok() ? *outcome : SearchOutcome::kUnreachable;
    }
  };
  RunOnThreads(threads, work);
}

}  // namespace zonepath
