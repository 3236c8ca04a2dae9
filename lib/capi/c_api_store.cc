// C API: path stores.
#include <algorithm>

#include "c_api_internal.h"

namespace zonepath::capi {
namespace {

// Rebuilds a C path (start + runs) as a RunLengthPath, checking each run.
zonepath_status ToPath(zonepath_point start, const zonepath_run* runs,
                       size_t count, const char* function,
                       RunLengthPath* path) {
  if (runs == nullptr && count != 0) {
    return InvalidArgument(function, ": runs is NULL but count is ", count);
  }
  path->Reset({start.x, start.y});
  for (size_t i = 0; i < count; ++i) {
    if (runs[i].direction > 7 || runs[i].count == 0) {
      return InvalidArgument(function, ": runs[", i, "] = {direction ",
                             runs[i].direction, ", count ", runs[i].count,
                             "}: expected direction 0..7 and count >= 1");
    }
    path->Append(static_cast<Direction>(runs[i].direction), runs[i].count);
  }
  return ZONEPATH_OK;
}

}  // namespace
}  // namespace zonepath::capi

using namespace zonepath::capi;  // NOLINT: the C entry points below

extern "C" {

zonepath_status zonepath_store_create(int32_t codec, zonepath_store** out) {
  constexpr const char* kFn = "zonepath_store_create";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(out, kFn);
    if (codec < ZONEPATH_CODEC_RUN_LENGTH || codec > ZONEPATH_CODEC_RAW_CELLS) {
      return InvalidArgument(kFn, ": codec is ", codec,
                             ", expected 1..4 (ZONEPATH_CODEC_*)");
    }
    zonepath::PathStoreOptions options;
    options.codec = static_cast<zonepath::PathCodec>(codec);
    *out = new zonepath_store(options);
    return Succeed();
  });
}

void zonepath_store_free(zonepath_store* store) { delete store; }

zonepath_status zonepath_store_set(zonepath_store* store, uint64_t unit,
                                   zonepath_point start,
                                   const zonepath_run* runs, size_t count,
                                   int64_t max_steps) {
  constexpr const char* kFn = "zonepath_store_set";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    ZONEPATH_C_CHECK(CheckPoint(start, kFn, "start"));
    zonepath::RunLengthPath path;
    ZONEPATH_C_CHECK(ToPath(start, runs, count, kFn, &path));
    return ReportIn(kFn,
                    store->store.Set(zonepath::UnitId(unit), path, max_steps));
  });
}

zonepath_status zonepath_store_read(const zonepath_store* store, uint64_t unit,
                                    int64_t max_steps, zonepath_point* start,
                                    zonepath_run* runs, size_t capacity,
                                    size_t* needed) {
  constexpr const char* kFn = "zonepath_store_read";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    thread_local zonepath::RunLengthPath path;  // keeps capacity
    ZONEPATH_C_CHECK(ReportIn(
        kFn, store->store.Read(zonepath::UnitId(unit), max_steps, &path)));
    ZONEPATH_C_CHECK(
        CheckBuffer(runs, capacity, needed, path.runs().size(), kFn, "runs"));
    if (start != nullptr) *start = {path.start().x, path.start().y};
    if (runs != nullptr) {
      std::transform(path.runs().begin(), path.runs().end(), runs,
                     [](const zonepath::Run& run) {
                       return zonepath_run{static_cast<uint32_t>(run.direction),
                                           run.count};
                     });
    }
    return Succeed();
  });
}

zonepath_status zonepath_store_advance(zonepath_store* store, uint64_t unit,
                                       int64_t steps) {
  constexpr const char* kFn = "zonepath_store_advance";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    return ReportIn(kFn, store->store.Advance(zonepath::UnitId(unit), steps));
  });
}

zonepath_status zonepath_store_remaining(const zonepath_store* store,
                                         uint64_t unit, int64_t* steps) {
  constexpr const char* kFn = "zonepath_store_remaining";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    ZONEPATH_C_NOT_NULL(steps, kFn);
    absl::StatusOr<int64_t> remaining =
        store->store.RemainingSteps(zonepath::UnitId(unit));
    if (!remaining.ok()) return ReportIn(kFn, remaining.status());
    *steps = *remaining;
    return Succeed();
  });
}

zonepath_status zonepath_store_remove(zonepath_store* store, uint64_t unit) {
  constexpr const char* kFn = "zonepath_store_remove";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    if (!store->store.Remove(zonepath::UnitId(unit))) {
      return Fail(absl::NotFoundError(
          absl::StrCat(kFn, ": unit ", unit, " has no path")));
    }
    return Succeed();
  });
}

zonepath_status zonepath_store_get_stats(const zonepath_store* store,
                                         zonepath_store_stats* stats) {
  constexpr const char* kFn = "zonepath_store_get_stats";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(store, kFn);
    ZONEPATH_C_CHECK(CheckStruct(stats, kFn, "stats"));
    const zonepath::PathStoreStats s = store->store.Stats();
    stats->units = s.units;
    stats->segments = s.segments;
    stats->remaining_steps = s.remaining_steps;
    stats->encoded_bytes = s.encoded_bytes;
    stats->memory_bytes = store->store.MemoryUsage();
    return Succeed();
  });
}

}  // extern "C"
