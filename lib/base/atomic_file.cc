#include "zonepath/base/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace zonepath {
namespace {

std::string TempPathFor(const std::string& path) {
  static std::atomic<int> counter{0};
  return absl::StrCat(path, ".tmp.", ::getpid(), ".", counter++);
}

}  // namespace

absl::Status WriteFileAtomically(
    const std::string& path,
    const std::function<absl::Status(std::ostream&)>& write) {
  const std::string temp = TempPathFor(path);
  absl::Status status;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) {
      return absl::PermissionDeniedError(
          absl::StrCat(path, ": cannot create temporary file ", temp, ": ",
                       std::strerror(errno)));
    }
    status = write(out);
    if (status.ok()) {
      out.flush();
      if (!out) {
        status = absl::DataLossError(
            absl::StrCat(path, ": write failed: ", std::strerror(errno)));
      }
    }
  }
  if (status.ok() && std::rename(temp.c_str(), path.c_str()) != 0) {
    status = absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot rename ", temp, " into place: ", std::strerror(errno)));
  }
  if (!status.ok()) std::remove(temp.c_str());
  return status;
}

}  // namespace zonepath
