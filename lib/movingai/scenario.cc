#include "zonepath/movingai/scenario.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "line_reader.h"
#include "zonepath/base/input_file.h"
#include "zonepath/base/status_macros.h"

namespace zonepath {
namespace {

using movingai_internal::LineReader;

constexpr const char* kFieldNames[] = {
    "bucket",  "map",    "map width", "map height",    "start x",
    "start y", "goal x", "goal y",    "optimal length"};

// 2^32 cells at the dearest terrain (255 x sqrt 2) per step, with room.
constexpr double kMaxOptimalLength = 1e13;
// Far more than any published scenario file (a few thousand).
constexpr size_t kMaxProblems = size_t{1} << 24;

}  // namespace

absl::StatusOr<Scenario> ReadScenario(std::istream& in,
                                      absl::string_view name) {
  LineReader reader(in, name);
  std::string line;
  if (!reader.Next(line)) {
    return reader.ErrorAtEnd("empty file, expected 'version 1'");
  }
  {
    std::vector<absl::string_view> words =
        absl::StrSplit(line, ' ', absl::SkipWhitespace());
    if (words.size() != 2 || words[0] != "version" ||
        (words[1] != "1" && words[1] != "1.0")) {
      return reader.Error("expected 'version 1', got '",
                          LineReader::Quote(line), "'");
    }
  }
  Scenario scenario;
  scenario.name = std::string(name);
  while (reader.Next(line)) {
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    if (fields.size() == 1) {
      // Some published files (e.g. bg512) separate fields with spaces.
      fields = absl::StrSplit(line, ' ', absl::SkipWhitespace());
    }
    if (fields.size() != 9) {
      return reader.Error(
          "expected 9 tab-separated fields (bucket, map, "
          "width, height, start x, start y, goal x, goal y, "
          "optimal length), got ",
          fields.size());
    }
    ScenarioProblem p;
    p.line = reader.line_number();
    p.map = std::string(fields[1]);
    int64_t ints[8] = {};
    for (int i : {0, 2, 3, 4, 5, 6, 7}) {
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(fields[i]), &ints[i])) {
        return reader.Error(kFieldNames[i], " must be an integer, got '",
                            LineReader::Quote(fields[i]), "'");
      }
    }
    // Plain decimal only (SimpleAtod would also take "0x10" or "inf"), and
    // no more than a path on the largest grid can cost.
    const absl::string_view length = absl::StripAsciiWhitespace(fields[8]);
    if (length.empty() ||
        length.find_first_not_of("0123456789.eE+-") != length.npos ||
        !absl::ascii_isdigit(static_cast<unsigned char>(length[0])) ||
        !absl::SimpleAtod(length, &p.optimal) || !std::isfinite(p.optimal) ||
        p.optimal < 0 || p.optimal > kMaxOptimalLength) {
      return reader.Error("optimal length must be a decimal number in 0..",
                          kMaxOptimalLength, ", got '",
                          LineReader::Quote(fields[8]), "'");
    }
    if (absl::Status size = Grid::CheckSize(ints[2], ints[3]); !size.ok()) {
      return reader.Error(size.message());
    }
    for (int i : {4, 5, 6, 7}) {
      const int64_t limit = (i % 2 == 0) ? ints[2] : ints[3];
      if (ints[i] < 0 || ints[i] >= limit) {
        return reader.Error(kFieldNames[i], " ", ints[i],
                            " is outside the map (", ints[2], "x", ints[3],
                            ")");
      }
    }
    p.bucket =
        static_cast<int>(std::clamp<int64_t>(ints[0], INT32_MIN, INT32_MAX));
    p.map_width = ints[2];
    p.map_height = ints[3];
    p.start = {static_cast<int32_t>(ints[4]), static_cast<int32_t>(ints[5])};
    p.goal = {static_cast<int32_t>(ints[6]), static_cast<int32_t>(ints[7])};
    if (scenario.problems.size() == kMaxProblems) {
      return reader.Error("more than ", kMaxProblems, " problems");
    }
    scenario.problems.push_back(std::move(p));
  }
  RETURN_IF_ERROR(reader.status());
  if (in.bad()) return reader.Error("read error");
  return scenario;
}

absl::StatusOr<Scenario> ReadScenarioFile(const std::string& path) {
  RETURN_IF_ERROR(CheckInputFile(path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  return ReadScenario(in, path);
}

absl::StatusOr<Scenario> ReadScenarioString(absl::string_view text) {
  std::istringstream in{std::string(text)};
  return ReadScenario(in, "<string>");
}

absl::Status CheckScenarioFitsGrid(const Scenario& scenario, const Grid& grid) {
  for (const ScenarioProblem& p : scenario.problems) {
    if (p.map_width != grid.width() || p.map_height != grid.height()) {
      return absl::InvalidArgumentError(absl::StrCat(
          scenario.name, ":", p.line, ": scenario is for a ", p.map_width, "x",
          p.map_height, " map, the map is ", grid.width(), "x", grid.height()));
    }
    for (Point q : {p.start, p.goal}) {
      if (!grid.InBounds(q)) {
        return absl::InvalidArgumentError(
            absl::StrCat(scenario.name, ":", p.line, ": ", PointString(q),
                         " is outside the map"));
      }
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> FindMapsWithScenarios(const std::string& dir) {
  std::vector<std::string> maps;
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) return maps;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, error);
       !error && it != std::filesystem::recursive_directory_iterator();
       it.increment(error)) {
    const std::filesystem::path& p = it->path();
    if (p.extension() == ".map" &&
        std::filesystem::exists(p.string() + ".scen", error)) {
      maps.push_back(p.string());
    }
  }
  std::sort(maps.begin(), maps.end());
  return maps;
}

bool MatchesOptimal(double cost, double optimal) {
  return std::abs(cost - optimal) <= std::max(0.01, 1e-5 * optimal);
}

}  // namespace zonepath
