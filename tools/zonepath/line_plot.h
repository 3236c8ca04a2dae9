// A log-log line plot as an RgbImage, for the benchmark report: decade grid
// lines with numeric labels (a built-in 3x5 digit font), one coloured line
// with point markers per series. Names and colours go in the report's text.
//
//   Series s{"A*", {230, 120, 20}, {{64, 120.0}, {512, 9000.0}}};
//   RgbImage plot = LogLogPlot({s}, 800, 500);
#ifndef ZONEPATH_TOOLS_ZONEPATH_LINE_PLOT_H_
#define ZONEPATH_TOOLS_ZONEPATH_LINE_PLOT_H_

#include <string>
#include <utility>
#include <vector>

#include "png_image.h"

namespace zonepath::cli {

struct Series {
  std::string name;
  Rgb color;
  std::vector<std::pair<double, double>> points;  // (x, y), both > 0
};

RgbImage LogLogPlot(const std::vector<Series>& series, int width, int height);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_LINE_PLOT_H_
