#include <atomic>
#include <thread>
#include <vector>

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
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& t : pool) t.join();
}

}  // namespace zonepath::update_internal
