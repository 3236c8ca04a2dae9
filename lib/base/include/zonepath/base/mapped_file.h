// MappedFile: a regular file mapped read-only into memory (mmap, MAP_SHARED,
// PROT_READ). Processes that map the same file share its pages through the
// page cache. The mapping lives as long as the last shared_ptr to it; arrays
// that view its bytes (CowArray::FromExternal) hold one.
//
//   ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> file,
//                    MappedFile::Open("city.zpw"));
//   absl::string_view bytes = file->bytes();
//
// The file must not be truncated or rewritten in place while it is mapped
// (reads past a truncation raise SIGBUS); zonepath writes files atomically
// (a new file renamed over the old one), which leaves existing mappings
// reading the old contents.
#ifndef ZONEPATH_BASE_MAPPED_FILE_H_
#define ZONEPATH_BASE_MAPPED_FILE_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace zonepath {

class MappedFile {
 public:
  // NotFound for a missing file, InvalidArgument for a directory, FIFO or
  // device (CheckInputFile), Internal if the mapping fails.
  static absl::StatusOr<std::shared_ptr<const MappedFile>> Open(
      const std::string& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  absl::string_view bytes() const {
    return absl::string_view(static_cast<const char*>(data_), size_);
  }

 private:
  MappedFile(void* data, size_t size) : data_(data), size_(size) {}

  void* data_;  // nullptr for an empty file
  size_t size_;
};

}  // namespace zonepath

#endif  // ZONEPATH_BASE_MAPPED_FILE_H_
