// Internal: reads text lines with "\r\n" or "\n" endings and counts them, for
// error messages of the form "FILE:LINE: problem". Lines are bounded
// (kMaxLineBytes): a longer one ends reading with an error (status()), so a
// file without newlines cannot grow memory without bound. Quote() is how
// messages show input text: escaped (no raw bytes or BOM on a terminal) and
// cut short.
#ifndef ZONEPATH_MOVINGAI_LINE_READER_H_
#define ZONEPATH_MOVINGAI_LINE_READER_H_

#include <istream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace zonepath::movingai_internal {

class LineReader {
 public:
  LineReader(std::istream& in, absl::string_view name) : in_(in), name_(name) {}

  // A map row is at most 65536 cells; scenario lines are short.
  static constexpr size_t kMaxLineBytes = size_t{1} << 20;

  // Reads the next line (without its ending) into `line`; false at the end
  // of the input or at a line longer than kMaxLineBytes (then status() says
  // so).
  bool Next(std::string& line) {
    if (!status_.ok()) return false;
    line.clear();
    std::streambuf* buffer = in_.rdbuf();
    bool any = false;
    for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof();
         c = buffer->sbumpc()) {
      any = true;
      if (c == '\n') break;
      if (line.size() == kMaxLineBytes) {
        status_ = absl::InvalidArgumentError(
            absl::StrCat(name_, ":", line_number_ + 1, ": line longer than ",
                         kMaxLineBytes, " bytes"));
        return false;
      }
      line.push_back(static_cast<char>(c));
    }
    if (!any) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_number_;
    return true;
  }
  int line_number() const { return line_number_; }
  // Not OK after a line too long to read.
  const absl::Status& status() const { return status_; }

  // Input text for a message: C-escaped, at most ~60 bytes.
  static std::string Quote(absl::string_view text) {
    constexpr size_t kShown = 60;
    std::string out = absl::CEscape(text.substr(0, kShown));
    if (text.size() > kShown) absl::StrAppend(&out, "...");
    return out;
  }

  // "NAME:LINE: message" as an InvalidArgument status.
  template <typename... Args>
  absl::Status Error(const Args&... message) const {
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ":", line_number_, ": ", message...));
  }
  template <typename... Args>
  absl::Status ErrorAtEnd(const Args&... message) const {
    if (!status_.ok()) return status_;
    return absl::InvalidArgumentError(
        absl::StrCat(name_, ":", line_number_ + 1,
                     ": unexpected end of file: ", message...));
  }

 private:
  std::istream& in_;
  std::string name_;
  int line_number_ = 0;
  absl::Status status_;
};

}  // namespace zonepath::movingai_internal

#endif  // ZONEPATH_MOVINGAI_LINE_READER_H_
