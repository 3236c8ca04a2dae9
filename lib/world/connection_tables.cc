#include "zonepath/world/connection_tables.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace zonepath {

ConnectionTables::ConnectionTables(const Parts& parts,
                                   std::shared_ptr<const void> keeper,
                                   bool mapped) {
  for (int j = kFirstLevel; j <= kMaxLevel; ++j) {
    const LevelData& l = parts[j];
    if (l.zone_begin.empty()) continue;
    std::vector<ZoneBlock>& blocks = levels_[j];
    blocks.resize(l.zone_begin.size() - 1);
    for (size_t z = 0; z + 1 < l.zone_begin.size(); ++z) {
      // Aliasing: each block shares the keeper's ownership.
      blocks[z].data = std::shared_ptr<const float>(
          keeper, l.values.data() + l.zone_begin[z]);
      blocks[z].size = l.zone_begin[z + 1] - l.zone_begin[z];
      blocks[z].mapped = mapped;
      blocks[z].owned = !mapped;
    }
  }
}

absl::Status ConnectionTables::Validate(const SharedAbstraction& a,
                                        int32_t width, int32_t height, int j,
                                        const LevelData& l) {
  const int levels = static_cast<int>(a.levels.size());
  if (j < kFirstLevel || j > levels || j > kMaxLevel) {
    return absl::InvalidArgumentError(absl::StrCat(
        "connection table for level ", j, ": the world has levels 1..", levels,
        " and tables start at level ", kFirstLevel));
  }
  const SharedLevel& level = a.levels[j - 1];
  if (l.zone_begin.size() != uint64_t{level.zone_count()} + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "level ", j, " connection table: ", l.zone_begin.size(),
        " zone offsets for ", level.zone_count(), " zones (want zones + 1)"));
  }
  if (l.zone_begin[0] != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("level ", j, " connection table: zone 0 starts at ",
                     l.zone_begin[0], ", not 0"));
  }
  for (uint32_t z = 0; z < level.zone_count(); ++z) {
    const uint64_t rows = level.zone_node_end[z] - level.zone_node_begin[z];
    const uint64_t cols = ForEachZoneMemberRange(a, j, z, width, height,
                                                 [](uint32_t, uint32_t) {});
    // Both counts are below 2^32 (node ids), so the product fits.
    const uint64_t want =
        BlockSize(rows, cols, level.ZoneRect(ZoneId(z), width, height));
    if (l.zone_begin[z + 1] < l.zone_begin[z] ||
        l.zone_begin[z + 1] - l.zone_begin[z] != want) {
      return absl::InvalidArgumentError(absl::StrCat(
          "level ", j, " connection table: zone ", z, " has ",
          l.zone_begin[z + 1] - l.zone_begin[z], " values, its ", rows,
          " nodes x ", cols, " level-", j - 1, " nodes need ", want));
    }
  }
  if (l.zone_begin.back() != l.values.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "level ", j, " connection table: offsets end at ", l.zone_begin.back(),
        " but it holds ", l.values.size(), " values"));
  }
  for (size_t i = 0; i < l.values.size(); ++i) {
    const float v = l.values[i];
    if (!(v >= 0)) {  // NaN too
      return absl::InvalidArgumentError(
          absl::StrCat("level ", j, " connection table: value ", i, " is ", v,
                       " (costs are >= 0 or +inf)"));
    }
  }
  return absl::OkStatus();
}

std::shared_ptr<const ConnectionTables> ConnectionTables::WithZones(
    const std::array<std::vector<uint32_t>, kMaxLevel + 1>& dirty,
    const std::function<uint64_t(int j, uint32_t z)>& sizes,
    const std::function<void(int j, uint32_t z, float* out)>& fill) const {
  std::shared_ptr<ConnectionTables> next(new ConnectionTables());
  next->levels_ = levels_;
  for (int j = kFirstLevel; j <= kMaxLevel; ++j) {
    std::vector<ZoneBlock>& blocks = next->levels_[j];
    for (ZoneBlock& b : blocks) b.owned = false;
    for (uint32_t z : dirty[j]) {
      if (z >= blocks.size()) continue;
      const uint64_t n = sizes(j, z);
      std::shared_ptr<float[]> buffer = std::make_shared<float[]>(n);
      if (n > 0) fill(j, z, buffer.get());
      blocks[z].data = std::shared_ptr<const float>(buffer, buffer.get());
      blocks[z].size = n;
      blocks[z].mapped = false;
      blocks[z].owned = true;
    }
  }
  return next;
}

size_t ConnectionTables::BlockBytes(bool ZoneBlock::*flag) const {
  size_t bytes = 0;
  for (const std::vector<ZoneBlock>& blocks : levels_) {
    for (const ZoneBlock& b : blocks) {
      bytes += b.*flag ? b.size * sizeof(float) : 0;
    }
  }
  return bytes;
}

size_t ConnectionTables::MappedBytes() const {
  return BlockBytes(&ZoneBlock::mapped);
}

size_t ConnectionTables::OwnedBytes() const {
  return BlockBytes(&ZoneBlock::owned);
}

size_t ConnectionTables::MemoryUsage() const {
  size_t bytes = sizeof(*this);
  for (const std::vector<ZoneBlock>& blocks : levels_) {
    bytes += blocks.capacity() * sizeof(ZoneBlock);
    for (const ZoneBlock& b : blocks) bytes += b.size * sizeof(float);
  }
  return bytes;
}

}  // namespace zonepath
