#include "line_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace zonepath::cli {
namespace {

// 3 x 5 digits, one row per entry, bit 2 = left column.
constexpr uint8_t kDigits[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7},
    {5, 5, 7, 1, 1}, {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1},
    {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
constexpr int kFontScale = 2;
constexpr Rgb kInk{60, 60, 60}, kGrid{225, 225, 225};

// Draws `text` (digits only) with its top-left corner at (x, y).
void DrawNumber(RgbImage& image, const std::string& text, int x, int y) {
  for (char ch : text) {
    if (ch < '0' || ch > '9') continue;
    for (int row = 0; row < 5; ++row) {
      for (int col = 0; col < 3; ++col) {
        if (kDigits[ch - '0'][row] >> (2 - col) & 1) {
          image.FillRect(x + col * kFontScale, y + row * kFontScale, kFontScale,
                         kFontScale, kInk);
        }
      }
    }
    x += 4 * kFontScale;
  }
}
// "1", "10", "100", ... for 10^d (d >= 0); "0" below 1 (the digit font
// has no decimal point).
std::string DecadeLabel(int d) {
  return d < 0 ? "0" : absl::StrCat(std::llround(std::pow(10.0, d)));
}
int NumberWidth(const std::string& text) {
  return static_cast<int>(text.size()) * 4 * kFontScale;
}

}  // namespace

RgbImage LogLogPlot(const std::vector<Series>& series, int width, int height) {
  RgbImage image(width, height, {255, 255, 255});
  double min_x = std::numeric_limits<double>::infinity(), max_x = 0;
  double min_y = min_x, max_y = 0;
  for (const Series& s : series) {
    for (const auto& [x, y] : s.points) {
      if (x <= 0 || y <= 0) continue;
      min_x = std::min(min_x, x);
      max_x = std::max(max_x, x);
      min_y = std::min(min_y, y);
      max_y = std::max(max_y, y);
    }
  }
  if (max_x == 0) return image;  // nothing to draw
  // Whole decades around the data.
  const int x0 = static_cast<int>(std::floor(std::log10(min_x)));
  const int x1 =
      std::max(x0 + 1, static_cast<int>(std::ceil(std::log10(max_x))));
  const int y0 = static_cast<int>(std::floor(std::log10(min_y)));
  const int y1 =
      std::max(y0 + 1, static_cast<int>(std::ceil(std::log10(max_y))));
  const int left = 70, right = width - 20, top = 20, bottom = height - 40;
  auto px = [&](double x) {
    return left + static_cast<int>(std::lround((std::log10(x) - x0) /
                                               (x1 - x0) * (right - left)));
  };
  auto py = [&](double y) {
    return bottom - static_cast<int>(std::lround((std::log10(y) - y0) /
                                                 (y1 - y0) * (bottom - top)));
  };
  for (int d = x0; d <= x1; ++d) {
    const int x = px(std::pow(10.0, d));
    image.Line(x, top, x, bottom, kGrid);
    const std::string label = DecadeLabel(d);
    DrawNumber(image, label, x - NumberWidth(label) / 2, bottom + 8);
  }
  for (int d = y0; d <= y1; ++d) {
    const int y = py(std::pow(10.0, d));
    image.Line(left, y, right, y, kGrid);
    const std::string label = DecadeLabel(d);
    DrawNumber(image, label, left - 8 - NumberWidth(label), y - 5);
  }
  image.Line(left, top, left, bottom, kInk);
  image.Line(left, bottom, right, bottom, kInk);
  for (const Series& s : series) {
    bool have_last = false;
    int lx = 0, ly = 0;
    for (const auto& [x, y] : s.points) {
      if (x <= 0 || y <= 0) continue;
      const int cx = px(x), cy = py(y);
      if (have_last) image.Line(lx, ly, cx, cy, s.color, 2);
      image.FillRect(cx - 3, cy - 3, 7, 7, s.color);
      lx = cx;
      ly = cy;
      have_last = true;
    }
  }
  return image;
}

}  // namespace zonepath::cli
