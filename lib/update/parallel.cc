#include <atomic>

#include "zonepath/base/parallel_chunks.h"
#include "zonepath/update/zone_kernels.h"

namespace zonepath::update_internal {

void ParallelForZones(int64_t zones, int threads,
                      const std::function<void(int thread, int64_t zone)>& fn) {
  std::atomic<int64_t> next{0};
  auto work = [&](int thread) {
    for (int64_t z = next++; z < zones; z = next++) fn(thread, z);
  };
  if (threads <= 1) {
    work(0);
    return;
  }
  RunOnThreads(threads, work);
}

}  // namespace zonepath::update_internal
