#include "zonepath/grid/moves.h"

namespace zonepath {

absl::string_view ConnectivityName(Connectivity c) {
  return c == Connectivity::kEight ? "8" : "4";
}

std::optional<Connectivity> ParseConnectivity(absl::string_view name) {
  if (name == "8" || name == "octile" || name == "eight") {
    return Connectivity::kEight;
  }
  if (name == "4" || name == "four") return Connectivity::kFour;
  return std::nullopt;
}

}  // namespace zonepath
