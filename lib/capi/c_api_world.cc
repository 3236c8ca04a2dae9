// C API: building, loading, saving, inspecting and changing worlds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "c_api_internal.h"
#include "zonepath/movingai/map_io.h"
#include "zonepath/offline/build_world.h"
#include "zonepath/update/world_changes.h"
#include "zonepath/world/world_file.h"

namespace zonepath::capi {

zonepath_status ToBuildOptions(const zonepath_build_params* params,
                               const char* function, BuildOptions* options) {
  *options = BuildOptions();
  if (params == nullptr) return ZONEPATH_OK;
  ZONEPATH_C_CHECK(
      CheckStruct(params, function, "params",
                  offsetof(zonepath_build_params, beacon_spacing)));
  if (params->connectivity != 8 && params->connectivity != 4) {
    return InvalidArgument(function, ": params->connectivity is ",
                           params->connectivity, ", expected 8 or 4");
  }
  if (params->threads < 0) {
    return InvalidArgument(function, ": params->threads is ", params->threads,
                           ", expected >= 0");
  }
  options->params.zone_size = params->zone_size;
  options->params.levels = params->levels;
  options->params.group = params->group;
  options->params.entrance_threshold = params->entrance_threshold;
  options->params.connectivity =
      params->connectivity == 4 ? Connectivity::kFour : Connectivity::kEight;
  options->params.cache_paths = params->cache_paths != 0;
  if (Fits(*params, params->beacon_spacing)) {
    options->params.beacon_spacing = params->beacon_spacing;
  }
  if (Fits(*params, params->connection_tables)) {
    options->connection_tables = params->connection_tables != 0;
  }
  options->threads = params->threads;
  const absl::Status valid = ValidateBuildParams(options->params);
  if (!valid.ok()) {
    return Fail(absl::Status(
        valid.code(), absl::StrCat(function, ": params: ", valid.message())));
  }
  return ZONEPATH_OK;
}

namespace {

zonepath_status BuildFromGrid(absl::StatusOr<Grid> grid,
                              const BuildOptions& options, const char* function,
                              zonepath_world** out) {
  if (!grid.ok()) return ReportIn(function, grid.status());
  return Deliver<zonepath_world>(BuildWorld(*std::move(grid), options),
                                 function, out);
}

}  // namespace
}  // namespace zonepath::capi

using namespace zonepath::capi;  // NOLINT: the C entry points below

extern "C" {

void zonepath_build_params_init(zonepath_build_params* params) {
  if (params == nullptr) return;
  const zonepath::BuildParams defaults;
  *params = zonepath_build_params{};
  params->struct_size = sizeof(*params);
  params->zone_size = defaults.zone_size;
  params->levels = defaults.levels;
  params->group = defaults.group;
  params->entrance_threshold = defaults.entrance_threshold;
  params->connectivity = 8;
  params->cache_paths = defaults.cache_paths ? 1 : 0;
  params->threads = 0;
  params->beacon_spacing = defaults.beacon_spacing;
  params->connection_tables = zonepath::BuildOptions().connection_tables;
}

zonepath_status zonepath_world_build_from_map(
    const char* map_path, const zonepath_build_params* params,
    zonepath_world** out) {
  constexpr const char* kFn = "zonepath_world_build_from_map";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(map_path, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    zonepath::BuildOptions options;
    ZONEPATH_C_CHECK(ToBuildOptions(params, kFn, &options));
    return BuildFromGrid(zonepath::ReadMapFile(map_path), options, kFn, out);
  });
}

zonepath_status zonepath_world_build(const uint8_t* costs, size_t costs_size,
                                     int32_t width, int32_t height,
                                     const zonepath_build_params* params,
                                     zonepath_world** out) {
  constexpr const char* kFn = "zonepath_world_build";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(costs, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    const absl::Status size = zonepath::Grid::CheckSize(width, height);
    if (!size.ok()) return InvalidArgument(kFn, ": ", size.message());
    const size_t cells = static_cast<size_t>(width) * height;
    if (costs_size != cells) {
      return InvalidArgument(kFn, ": costs_size is ", costs_size,
                             ", expected width * height = ", cells);
    }
    zonepath::BuildOptions options;
    ZONEPATH_C_CHECK(ToBuildOptions(params, kFn, &options));
    return BuildFromGrid(
        zonepath::Grid::Create(width, height,
                               std::vector<uint8_t>(costs, costs + cells)),
        options, kFn, out);
  });
}

zonepath_status zonepath_world_load(const char* path, zonepath_world** out) {
  constexpr const char* kFn = "zonepath_world_load";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(path, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    return Deliver<zonepath_world>(zonepath::LoadWorldFile(path), kFn, out);
  });
}

zonepath_status zonepath_world_save(const zonepath_world* world,
                                    const char* path) {
  constexpr const char* kFn = "zonepath_world_save";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_NOT_NULL(path, kFn);
    return ReportIn(kFn, zonepath::SaveWorldFile(world->world, path));
  });
}

zonepath_status zonepath_world_get_info(const zonepath_world* world,
                                        zonepath_world_info* info) {
  constexpr const char* kFn = "zonepath_world_get_info";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_CHECK(CheckStruct(info, kFn, "info"));
    const zonepath::World& w = world->world;
    info->width = w.grid().width();
    info->height = w.grid().height();
    info->levels = w.params().levels;
    info->zone_size = w.params().zone_size;
    info->connectivity =
        w.params().connectivity == zonepath::Connectivity::kFour ? 4 : 8;
    info->version = w.version();
    info->memory_bytes = w.MemoryUsage();
    info->owned_bytes = w.OwnedBytes();
    return Succeed();
  });
}

zonepath_status zonepath_world_costs(const zonepath_world* world,
                                     uint8_t* costs, size_t capacity,
                                     size_t* needed) {
  constexpr const char* kFn = "zonepath_world_costs";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    const zonepath::Grid& grid = world->world.grid();
    const size_t cells = static_cast<size_t>(grid.cell_count());
    ZONEPATH_C_CHECK(CheckBuffer(costs, capacity, needed, cells, kFn, "costs"));
    if (costs != nullptr) {
      size_t i = 0;
      for (int32_t y = 0; y < grid.height(); ++y) {
        for (int32_t x = 0; x < grid.width(); ++x)
          costs[i++] = grid.cost({x, y});
      }
    }
    return Succeed();
  });
}

zonepath_status zonepath_world_apply_changes(
    const zonepath_world* world, const zonepath_cell_change* changes,
    size_t count, zonepath_world** out) {
  constexpr const char* kFn = "zonepath_world_apply_changes";
  return Guard(kFn, [&] {
    ZONEPATH_C_NOT_NULL(world, kFn);
    ZONEPATH_C_NOT_NULL(out, kFn);
    if (changes == nullptr && count != 0) {
      return InvalidArgument(kFn, ": changes is NULL but count is ", count);
    }
    if (count > PTRDIFF_MAX / sizeof(zonepath_cell_change)) {
      return InvalidArgument(kFn, ": count ", count,
                             " is larger than any array of changes");
    }
    std::vector<zonepath::CellChange> batch;
    batch.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      batch.push_back({{changes[i].x, changes[i].y}, changes[i].cost});
    }
    return Deliver<zonepath_world>(zonepath::ApplyChanges(world->world, batch),
                                   kFn, out);
  });
}

void zonepath_world_free(zonepath_world* world) { delete world; }

}  // extern "C"
