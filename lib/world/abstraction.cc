#include "zonepath/world/abstraction.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace zonepath {

LevelGeometry LevelGeometry::For(const BuildParams& params, int32_t width,
                                 int32_t height, int index) {
  int64_t side = params.zone_size;
  for (int i = 0; i < index; ++i) side *= params.group;
  side = std::min<int64_t>(side, std::numeric_limits<int32_t>::max() / 2);
  LevelGeometry level;
  level.zone_side = static_cast<int32_t>(side);
  level.zones_x = static_cast<int32_t>((width + side - 1) / side);
  level.zones_y = static_cast<int32_t>((height + side - 1) / side);
  return level;
}

absl::Status CheckParamRanges(const BuildParams& p, bool automatic) {
  const auto out_of = [](absl::string_view field, int64_t value,
                         absl::string_view range) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " ", value, " not in ", range));
  };
  const bool automatic_zone_size = automatic && p.zone_size == 0;
  if (!automatic_zone_size &&
      (p.zone_size < kMinZoneSize || p.zone_size > kMaxZoneSize)) {
    return out_of("zone_size", p.zone_size,
                  absl::StrCat(kMinZoneSize, "..", kMaxZoneSize,
                               automatic ? " (or 0: automatic)" : ""));
  }
  if (p.levels < (automatic ? 0 : 1) || p.levels > kMaxLevelCount) {
    return out_of("levels", p.levels,
                  absl::StrCat("1..", kMaxLevelCount,
                               automatic ? " (or 0: automatic)" : ""));
  }
  if (p.group < kMinGroup || p.group > kMaxGroup) {
    return out_of("group", p.group, absl::StrCat(kMinGroup, "..", kMaxGroup));
  }
  if (p.entrance_threshold < kMinEntranceThreshold ||
      p.entrance_threshold > kMaxEntranceThreshold) {
    return out_of(
        "entrance_threshold", p.entrance_threshold,
        absl::StrCat(kMinEntranceThreshold, "..", kMaxEntranceThreshold));
  }
  // An automatic zone size is at least kSmallWorldZoneSize: its spacing is
  // checked against that here, and against the resolved size when the
  // build knows the world's (BuildFlatAbstraction).
  const int32_t zone_size =
      automatic_zone_size ? kSmallWorldZoneSize : p.zone_size;
  if (p.beacon_spacing != 0 &&
      (p.beacon_spacing < MinBeaconSpacing(zone_size) ||
       p.beacon_spacing > kMaxBeaconSpacing)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "beacon_spacing ", p.beacon_spacing, " not 0 or in ",
        MinBeaconSpacing(zone_size), "..", kMaxBeaconSpacing, " for ",
        automatic_zone_size ? absl::StrCat("an automatic zone_size (",
                                           kSmallWorldZoneSize, " or more)")
                            : absl::StrCat("zone_size ", zone_size)));
  }
  return absl::OkStatus();
}

int32_t AutoZoneSize(int32_t width, int32_t height) {
  return std::max(width, height) <= kSmallWorldSide ? kSmallWorldZoneSize
                                                    : kLargeWorldZoneSize;
}

BuildParams ResolveBuildParams(const BuildParams& p, int32_t width,
                               int32_t height) {
  BuildParams resolved = p;
  if (resolved.zone_size == 0) resolved.zone_size = AutoZoneSize(width, height);
  if (resolved.levels == 0) {
    resolved.levels = AutoLevelCount(resolved, width, height);
  }
  return resolved;
}

int32_t AutoLevelCount(const BuildParams& params, int32_t width,
                       int32_t height) {
  const int64_t longer = std::max(width, height);
  int64_t next_side = static_cast<int64_t>(params.zone_size) * params.group;
  int32_t levels = 1;
  // next_side > 0: a zone size of 0 (unresolved) gets one level, not eight.
  while (levels < kMaxLevelCount && next_side > 0 && 4 * next_side <= longer) {
    ++levels;
    next_side *= params.group;
  }
  return levels;
}

Rect LevelGeometry::ZoneRect(ZoneId z, int32_t width, int32_t height) const {
  const int32_t zx = static_cast<int32_t>(z.value() % zones_x);
  const int32_t zy = static_cast<int32_t>(z.value() / zones_x);
  return {zx * zone_side, zy * zone_side, std::min(width, (zx + 1) * zone_side),
          std::min(height, (zy + 1) * zone_side)};
}

size_t AbstractLevel::MemoryUsage() const {
  return sizeof(*this) + node_beacon.capacity() * 4 +
         edge_begin.capacity() * 4 + edges.capacity() * sizeof(AbstractEdge) +
         zone_node_begin.capacity() * 4 + node_component.capacity() * 4;
}

size_t Abstraction::MemoryUsage() const {
  size_t bytes = sizeof(*this) + beacons.capacity() * sizeof(Point) +
                 cached_paths.MemoryUsage();
  for (const AbstractLevel& level : levels) bytes += level.MemoryUsage();
  return bytes;
}

}  // namespace zonepath
