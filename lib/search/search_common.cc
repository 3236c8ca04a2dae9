#include "zonepath/search/search_common.h"

#include "absl/strings/str_cat.h"

namespace zonepath {

absl::Status CheckEndpoint(const Grid& grid, const Rect& bounds, Point p,
                           absl::string_view what) {
  if (!grid.InBounds(p)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " ", PointString(p), " is outside the ",
                     grid.width(), "x", grid.height(), " grid"));
  }
  if (!bounds.Contains(p)) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " ", PointString(p), " is outside the search bounds"));
  }
  if (!grid.passable(p)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " ", PointString(p), " is blocked"));
  }
  return absl::OkStatus();
}

}  // namespace zonepath
