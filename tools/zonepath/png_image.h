// RgbImage: an 8-bit RGB raster for `zonepath render`, written as PNG with
// libpng (Debian's libpng-dev) through an atomic file write.
//
//   RgbImage image(640, 480, {255, 255, 255});
//   image.Set(10, 20, {200, 0, 0});
//   RETURN_IF_ERROR(WritePngFile(image, "out.png"));
#ifndef ZONEPATH_TOOLS_ZONEPATH_PNG_IMAGE_H_
#define ZONEPATH_TOOLS_ZONEPATH_PNG_IMAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace zonepath::cli {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

class RgbImage {
 public:
  RgbImage(int width, int height, Rgb background)
      : width_(width),
        height_(height),
        pixels_(static_cast<size_t>(width) * height, background) {}
  int width() const { return width_; }
  int height() const { return height_; }
  // Out-of-range pixels are ignored.
  void Set(int x, int y, Rgb c) {
    if (x >= 0 && y >= 0 && x < width_ && y < height_) {
      pixels_[static_cast<size_t>(y) * width_ + x] = c;
    }
  }
  // Mixes `c` into the pixel with weight alpha (0..1).
  void Blend(int x, int y, Rgb c, double alpha);
  Rgb Get(int x, int y) const {
    return pixels_[static_cast<size_t>(y) * width_ + x];
  }
  void FillRect(int x, int y, int w, int h, Rgb c);
  // A line of the given thickness (pixels) between two pixel centres.
  void Line(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1);
  // Copies `other` with its top-left corner at (x, y).
  void Paste(const RgbImage& other, int x, int y);

 private:
  int width_, height_;
  std::vector<Rgb> pixels_;
};

// Writes `image` as an 8-bit RGB PNG (to a temporary file, then renamed).
absl::Status WritePngFile(const RgbImage& image, const std::string& path);

}  // namespace zonepath::cli

#endif  // ZONEPATH_TOOLS_ZONEPATH_PNG_IMAGE_H_
