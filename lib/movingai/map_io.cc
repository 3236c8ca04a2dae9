#include "zonepath/movingai/map_io.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "line_reader.h"
#include "zonepath/base/atomic_file.h"
#include "zonepath/base/cow_array.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

using movingai_internal::LineReader;

// Reads "type", "height" and "width" lines up to "map"; any order.
absl::Status ReadHeader(LineReader& reader, int64_t* width, int64_t* height) {
  std::optional<int64_t> w, h;
  bool type_seen = false;
  std::string line;
  while (true) {
    if (!reader.Next(line)) {
      if (reader.line_number() == 0) {
        return reader.ErrorAtEnd("empty file, expected 'type octile'");
      }
      return reader.ErrorAtEnd("header has no 'map' line");
    }
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (words.empty()) continue;
    if (words[0] == "map" && words.size() == 1) break;
    if (words.size() != 2) {
      return reader.Error(
          "expected a header line 'type octile', 'height H', "
          "'width W' or 'map', got '",
          LineReader::Quote(line), "'");
    }
    if (words[0] == "type") {
      if (words[1] != "octile") {
        return reader.Error("unsupported map type '",
                            LineReader::Quote(words[1]), "' (only 'octile')");
      }
      type_seen = true;
      continue;
    }
    int64_t value = 0;
    if (!absl::SimpleAtoi(words[1], &value)) {
      return reader.Error("'", LineReader::Quote(words[0]),
                          "' needs an integer, got '",
                          LineReader::Quote(words[1]), "'");
    }
    std::optional<int64_t>* field = words[0] == "height"  ? &h
                                    : words[0] == "width" ? &w
                                                          : nullptr;
    if (field == nullptr) {
      return reader.Error("unknown header field '", LineReader::Quote(words[0]),
                          "'");
    }
    if (field->has_value()) {
      return reader.Error("duplicate '", words[0], "' line");
    }
    *field = value;
  }
  if (!type_seen) return reader.Error("'map' before a 'type octile' line");
  if (!h.has_value()) return reader.Error("'map' before a 'height' line");
  if (!w.has_value()) return reader.Error("'map' before a 'width' line");
  if (absl::Status size = Grid::CheckSize(*w, *h); !size.ok()) {
    return reader.Error(size.message());
  }
  *width = *w;
  *height = *h;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Grid> ReadMap(std::istream& in, absl::string_view name,
                             const TerrainLegend& legend) {
  LineReader reader(in, name);
  int64_t width = 0, height = 0;
  RETURN_IF_ERROR(ReadHeader(reader, &width, &height));
  // Grow with the rows read: a lying header cannot force a big allocation.
  // Rows go straight into the grid's pages (no vector that doubles as it
  // grows and is then copied: reading a map held up to 3x its cells).
  CowArray<uint8_t> costs;
  std::vector<uint8_t> row_costs;
  std::string line;
  for (int64_t row = 0; row < height; ++row) {
    if (!reader.Next(line)) {
      return reader.ErrorAtEnd("map has ", row, " rows, header says ", height);
    }
    if (static_cast<int64_t>(line.size()) != width) {
      return reader.Error("row ", row, " has ", line.size(),
                          " characters, header says width ", width);
    }
    row_costs.clear();
    for (size_t x = 0; x < line.size(); ++x) {
      std::optional<uint8_t> cost = legend.CostOf(line[x]);
      if (!cost.has_value()) {
        return reader.Error("row ", row, " column ", x,
                            ": unknown terrain character '",
                            absl::CEscape(line.substr(x, 1)), "'");
      }
      row_costs.push_back(*cost);
    }
    costs.Append(row_costs.data(), row_costs.size());
  }
  while (reader.Next(line)) {
    if (!absl::StripAsciiWhitespace(line).empty()) {
      return reader.Error("more rows than the header's height ", height);
    }
  }
  RETURN_IF_ERROR(reader.status());
  if (in.bad()) return reader.Error("read error");
  absl::StatusOr<Grid> grid =
      Grid::CreateFromPages(width, height, std::move(costs));
  if (!grid.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", grid.status().message()));
  }
  return grid;
}

absl::StatusOr<Grid> ReadMapFile(const std::string& path,
                                 const TerrainLegend& legend) {
  RETURN_IF_ERROR(CheckInputFile(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  return ReadMap(in, path, legend);
}

absl::StatusOr<Grid> ReadMapString(absl::string_view text,
                                   const TerrainLegend& legend) {
  std::istringstream in{std::string(text)};
  return ReadMap(in, "<string>", legend);
}

absl::Status WriteMap(const Grid& grid, std::ostream& out,
                      const TerrainLegend& legend) {
  std::array<char, 256> chars{};
  std::array<bool, 256> known{};
  for (int cost = 0; cost < 256; ++cost) {
    if (std::optional<char> c = legend.CharFor(static_cast<uint8_t>(cost))) {
      chars[cost] = *c;
      known[cost] = true;
    }
  }
  out << "type octile\nheight " << grid.height() << "\nwidth " << grid.width()
      << "\nmap\n";
  std::string row(static_cast<size_t>(grid.width()) + 1, '\n');
  for (int32_t y = 0; y < grid.height(); ++y) {
    for (int32_t x = 0; x < grid.width(); ++x) {
      const uint8_t cost = grid.cost({x, y});
      if (!known[cost]) {
        return absl::InvalidArgumentError(
            absl::StrCat("cell (", x, ",", y, ") has cost ", cost,
                         " which has no character in the legend"));
      }
      row[x] = chars[cost];
    }
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
  return absl::OkStatus();
}

absl::Status WriteMapFile(const Grid& grid, const std::string& path,
                          const TerrainLegend& legend) {
  return WriteFileAtomically(
      path, [&](std::ostream& out) { return WriteMap(grid, out, legend); });
}

}  // namespace zonepath
