#include "zonepath/base/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace zonepath {
namespace {

// Temporary files being written, for RemovePendingTempFiles: fixed slots
// (no allocation in a signal handler); a write that finds none free is
// simply not cleaned up on a signal.
constexpr int kSlots = 16;
constexpr size_t kMaxPath = 4096;
std::atomic<bool> slot_used[kSlots];
char slot_path[kSlots][kMaxPath];

int RegisterTemp(const std::string& temp) {
  if (temp.size() >= kMaxPath) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (slot_used[i].compare_exchange_strong(expected, true)) {
      std::memcpy(slot_path[i], temp.c_str(), temp.size() + 1);
      return i;
    }
  }
  return -1;
}

void UnregisterTemp(int slot) {
  if (slot >= 0) slot_used[slot].store(false);
}

std::string TempPathFor(const std::string& path) {
  static std::atomic<int> counter{0};
  return absl::StrCat(path, ".tmp.", ::getpid(), ".", counter++);
}

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// fsync of the file or directory at `path`, so the data (or the rename) is
// on disk before we report success.
absl::Status SyncPath(const std::string& path, const std::string& target) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return absl::DataLossError(absl::StrCat(
        target, ": cannot open ", path, " to sync: ", std::strerror(errno)));
  }
  const bool ok = ::fsync(fd) == 0 || errno == EINVAL;  // EINVAL: no sync
  const int error = errno;
  ::close(fd);
  if (!ok) {
    return absl::DataLossError(absl::StrCat(target, ": sync of ", path,
                                            " failed: ", std::strerror(error)));
  }
  return absl::OkStatus();
}

// Only a regular file (or nothing) may be replaced: renaming over a device,
// FIFO, directory or symlink would replace that node itself (as root,
// `-o /dev/null` would replace the system's /dev/null).
absl::Status CheckTarget(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot check the output path: ", std::strerror(errno)));
  }
  if (S_ISREG(st.st_mode)) return absl::OkStatus();
  const char* what = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISLNK(st.st_mode)  ? "a symbolic link"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISFIFO(st.st_mode) ? "a FIFO"
                                            : "not a regular file";
  return absl::InvalidArgumentError(absl::StrCat(
      path, ": output path is ", what, "; outputs replace only regular files"));
}

}  // namespace

void RemovePendingTempFiles() {
  for (int i = 0; i < kSlots; ++i) {
    if (slot_used[i].load()) ::unlink(slot_path[i]);
  }
}

absl::Status WriteFileAtomically(
    const std::string& path,
    const std::function<absl::Status(std::ostream&)>& write) {
  if (absl::Status target = CheckTarget(path); !target.ok()) return target;
  const std::string temp = TempPathFor(path);
  // Whatever happens below (an error, or `write` throwing), the temporary
  // file goes and its signal-cleanup slot is freed, unless it was renamed
  // into place.
  struct PendingTemp {
    const std::string& temp;
    int slot;
    bool renamed = false;
    ~PendingTemp() {
      if (!renamed) std::remove(temp.c_str());
      UnregisterTemp(slot);
    }
  } pending{temp, RegisterTemp(temp)};
  absl::Status status;
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) {
      const int error = errno;
      const std::string message =
          absl::StrCat(path, ": cannot create temporary file ", temp, ": ",
                       std::strerror(error));
      // A missing directory is NotFound; the rest (permissions, a
      // read-only file system, ...) PermissionDenied.
      return error == ENOENT || error == ENOTDIR
                 ? absl::NotFoundError(message)
                 : absl::PermissionDeniedError(message);
    }
    status = write(out);
    if (status.ok()) {
      out.close();  // flushes; a full disk shows here
      if (out.fail()) {
        status = absl::DataLossError(
            absl::StrCat(path, ": write failed: ", std::strerror(errno)));
      }
    }
  }
  if (status.ok()) status = SyncPath(temp, path);
  if (!status.ok()) return status;
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    return absl::PermissionDeniedError(absl::StrCat(
        path, ": cannot rename ", temp, " into place: ", std::strerror(errno)));
  }
  pending.renamed = true;
  return SyncPath(DirectoryOf(path), path);
}

}  // namespace zonepath
