#include "png_image.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "zonepath/base/atomic_file.h"

namespace zonepath::cli {

void RgbImage::Blend(int x, int y, Rgb c, double alpha) {
  if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
  Rgb& p = pixels_[static_cast<size_t>(y) * width_ + x];
  auto mix = [alpha](uint8_t a, uint8_t b) {
    return static_cast<uint8_t>(std::lround(a * (1 - alpha) + b * alpha));
  };
  p = {mix(p.r, c.r), mix(p.g, c.g), mix(p.b, c.b)};
}

void RgbImage::FillRect(int x, int y, int w, int h, Rgb c) {
  for (int yy = std::max(0, y); yy < std::min(height_, y + h); ++yy) {
    for (int xx = std::max(0, x); xx < std::min(width_, x + w); ++xx) {
      pixels_[static_cast<size_t>(yy) * width_ + xx] = c;
    }
  }
}

void RgbImage::Line(int x0, int y0, int x1, int y1, Rgb c, int thickness) {
  // Bresenham, stamping a thickness x thickness square per point.
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
  const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  const int half = thickness / 2;
  int err = dx + dy;
  while (true) {
    FillRect(x0 - half, y0 - half, thickness, thickness, c);
    if (x0 == x1 && y0 == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) {
      err += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      err += dx;
      y0 += sy;
    }
  }
}

void RgbImage::Paste(const RgbImage& other, int x, int y) {
  for (int yy = 0; yy < other.height(); ++yy) {
    for (int xx = 0; xx < other.width(); ++xx) {
      Set(x + xx, y + yy, other.Get(xx, yy));
    }
  }
}

namespace {

void AppendToStream(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::ostream*>(png_get_io_ptr(png));
  out->write(reinterpret_cast<const char*>(data),
             static_cast<std::streamsize>(length));
}
void NoFlush(png_structp) {}

}  // namespace

absl::Status WritePngFile(const RgbImage& image, const std::string& path) {
  return WriteFileAtomically(path, [&](std::ostream& out) -> absl::Status {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr,
                                              nullptr, nullptr);
    if (png == nullptr) return absl::InternalError("libpng: out of memory");
    png_infop info = png_create_info_struct(png);
    // Constructed before setjmp, so a libpng error (longjmp back here) skips
    // no constructor or destructor.
    std::vector<png_byte> row(static_cast<size_t>(image.width()) * 3);
    if (info == nullptr || setjmp(png_jmpbuf(png))) {
      png_destroy_write_struct(&png, &info);
      return absl::InternalError(absl::StrCat("libpng failed writing ", path));
    }
    png_set_write_fn(png, &out, AppendToStream, NoFlush);
    png_set_IHDR(png, info, image.width(), image.height(), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < image.height(); ++y) {
      for (int x = 0; x < image.width(); ++x) {
        const Rgb c = image.Get(x, y);
        row[3 * x] = c.r;
        row[3 * x + 1] = c.g;
        row[3 * x + 2] = c.b;
      }
      png_write_row(png, row.data());
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return absl::OkStatus();
  });
}

}  // namespace zonepath::cli
