#include "zonepath/base/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace zonepath {
namespace {

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

absl::StatusOr<uint64_t> InputFileSize(const std::string& path) {
  struct stat st;
  // stat, not open: opening a FIFO would block until a writer comes.
  if (::stat(path.c_str(), &st) != 0) {
    const int error = errno;
    const std::string message =
        absl::StrCat(path, ": cannot open: ", std::strerror(error));
    return error == ENOENT ? absl::NotFoundError(message)
                           : absl::InvalidArgumentError(message);
  }
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": is ", KindOf(st.st_mode), ", not a regular file"));
  }
  return static_cast<uint64_t>(st.st_size);
}

absl::Status CheckInputFile(const std::string& path) {
  return InputFileSize(path).status();
}

}  // namespace zonepath
