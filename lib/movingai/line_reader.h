// Internal: reads text lines with "\r\n" or "\n" endings and counts them, for
// error messages of the form "FILE:LINE: problem".
#ifndef ZONEPATH_MOVINGAI_LINE_READER_H_
#define ZONEPATH_MOVINGAI_LINE_READER_H_

#include <istream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace zonepath::movingai_internal {

class LineReader {
 public:
  LineReader(std::istream& in, absl::string_view name) : in_(in), name_(name) {}

  // Reads the next line (without its ending) into `line`; false at the end.
  bool Next(std::string& line) {
    if (!std::getline(in_, line)) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_number_;
    return true;
  }
  int line_number() const { return line_number_; }

  // "NAME:LINE: message" as an InvalidArgument status.
  template <typename... Args>
  absl::Status Error(const Args&... message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ":", line_number_, ": ", message...));
  }
  template <typename... Args>
  absl::Status ErrorAtEnd(const Args&... message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ":", line_number_ + 1,
                     ": unexpected end of file: ", message...));
  }

 private:
  std::istream& in_;
  std::string name_;
  int line_number_ = 0;
};

}  // namespace zonepath::movingai_internal

#endif  // ZONEPATH_MOVINGAI_LINE_READER_H_
