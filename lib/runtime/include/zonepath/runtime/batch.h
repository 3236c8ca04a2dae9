// PlanBatch: many queries on one shared World across a pool of threads, each
// thread with its own Planner. Results are the same for any thread count.
//
//   std::vector<BatchQuery> queries = {{{1, 1}, {900, 700}}, ...};
//   std::vector<BatchResult> results;
//   PlanBatch(world, queries, PlanOptions(), /*threads=*/2, &results);
//   if (results[0].status.ok() && results[0].outcome == SearchOutcome::kFound)
//     use(results[0].path);
#ifndef ZONEPATH_RUNTIME_BATCH_H_
#define ZONEPATH_RUNTIME_BATCH_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "zonepath/runtime/planner.h"

namespace zonepath {

struct BatchQuery {
  Point start;
  Point goal;
};

struct BatchResult {
  absl::Status status;  // error for a bad query; the others still run
  SearchOutcome outcome = SearchOutcome::kUnreachable;
  RunLengthPath path;
};

// Plans every query with FindPath; `threads` <= 0 means all hardware
// threads, at most kMaxThreads (parallel_chunks.h) and one per query.
// `results` is resized to queries.size(); existing elements keep capacity.
void PlanBatch(const World& world, absl::Span<const BatchQuery> queries,
               const PlanOptions& options, int threads,
               std::vector<BatchResult>* results);

}  // namespace zonepath

#endif  // ZONEPATH_RUNTIME_BATCH_H_
