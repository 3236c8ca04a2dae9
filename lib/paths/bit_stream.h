// Bit-level writer and bounds-checked reader for the path codecs (internal).
//
// Bits are stored least-significant first within each byte, so a stream can
// be appended to without knowing its final length. The reader never reads
// past `bit_size` and reports overruns by returning false: decoders of
// corrupted input fail cleanly instead of reading out of range.
#ifndef ZONEPATH_PATHS_BIT_STREAM_H_
#define ZONEPATH_PATHS_BIT_STREAM_H_

#include <bit>
#include <cstdint>
#include <string>

namespace zonepath::paths_internal {

class BitWriter {
 public:
  // Appends to `out` (whose existing bytes are kept).
  explicit BitWriter(std::string* out) : out_(out) {}

  // Writes the low `bits` (<= 32) bits of `value`.
  void Write(uint32_t value, int bits) {
    acc_ |= static_cast<uint64_t>(value & Mask(bits)) << acc_bits_;
    acc_bits_ += bits;
    bit_count_ += bits;
    while (acc_bits_ >= 8) {
      out_->push_back(static_cast<char>(acc_ & 0xff));
      acc_ >>= 8;
      acc_bits_ -= 8;
    }
  }
  // Elias gamma code of `value` >= 1: floor(log2 v) zeros, a one, then the
  // bits below the leading one (2 * floor(log2 v) + 1 bits in all).
  void WriteGamma(uint32_t value) {
    const int n = std::bit_width(value) - 1;
    Write(0, n / 2);
    Write(0, n - n / 2);
    Write(1, 1);
    Write(value, n);  // Write masks to the low n bits
  }
  // Pads the last byte with zeros.
  void Flush() {
    if (acc_bits_ > 0) Write(0, 8 - acc_bits_);
  }
  uint64_t bit_count() const { return bit_count_; }

 private:
  static uint32_t Mask(int bits) {
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
  }
  std::string* out_;
  uint64_t acc_ = 0;
  int acc_bits_ = 0;
  uint64_t bit_count_ = 0;
};

class BitReader {
 public:
  BitReader() = default;
  BitReader(const uint8_t* data, uint64_t bit_size)
      : data_(data), bit_size_(bit_size) {}

  uint64_t position() const { return pos_; }
  uint64_t bit_size() const { return bit_size_; }
  bool at_end() const { return pos_ == bit_size_; }
  // Returns false (and does not move) if `bit` is past the end.
  bool Seek(uint64_t bit) {
    if (bit > bit_size_) return false;
    pos_ = bit;
    return true;
  }

  // Reads `bits` (<= 32) bits; false if fewer remain.
  bool Read(int bits, uint32_t* value) {
    if (bits > 0 && bit_size_ - pos_ < static_cast<uint64_t>(bits)) {
      return false;
    }
    const uint64_t window = Window();
    *value = static_cast<uint32_t>(
        bits >= 32 ? window : window & ((uint64_t{1} << bits) - 1));
    pos_ += bits;
    return true;
  }
  // Reads an Elias gamma code (WriteGamma); false on overrun or a value
  // that would not fit 32 bits.
  bool ReadGamma(uint32_t* value) {
    const uint64_t zeros = CountZeros(32);
    if (zeros >= 32 || bit_size_ - pos_ < zeros + 1) return false;
    pos_ += 1;  // the one
    uint32_t low = 0;
    if (!Read(static_cast<int>(zeros), &low)) return false;
    *value = (uint32_t{1} << zeros) | low;
    return true;
  }
  // Skips zero bits, at most `limit` of them, stopping before a one bit or
  // at the end; returns how many were skipped.
  uint64_t CountZeros(uint64_t limit) {
    uint64_t count = 0;
    while (count < limit && pos_ < bit_size_) {
      const uint64_t available = std::min<uint64_t>(56, bit_size_ - pos_);
      const uint64_t window = Window() & ((uint64_t{1} << available) - 1);
      uint64_t run = window == 0
                         ? available
                         : static_cast<uint64_t>(std::countr_zero(window));
      run = std::min(run, limit - count);
      pos_ += run;
      count += run;
      if (run < available) break;  // stopped at a one bit (or the limit)
    }
    return count;
  }

 private:
  // At least 56 valid bits starting at pos_ (zeros beyond the data).
  uint64_t Window() const {
    const uint64_t byte = pos_ >> 3;
    const uint64_t bytes = (bit_size_ + 7) >> 3;
    uint64_t window = 0;
    const uint64_t n = std::min<uint64_t>(8, bytes - byte);
    for (uint64_t i = 0; i < n; ++i) {
      window |= static_cast<uint64_t>(data_[byte + i]) << (8 * i);
    }
    return window >> (pos_ & 7);
  }

  const uint8_t* data_ = nullptr;
  uint64_t bit_size_ = 0;
  uint64_t pos_ = 0;
};

// LEB128 varints for the header of an encoded path.
inline void WriteVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}
// Reads a varint at `*pos` of at most `max` value; false if truncated,
// overlong (not the shortest form), wider than 64 bits or too large.
inline bool ReadVarint(const uint8_t* data, size_t size, size_t* pos,
                       uint64_t max, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 64 && *pos < size; shift += 7) {
    const uint8_t byte = data[(*pos)++];
    const uint64_t bits = static_cast<uint64_t>(byte & 0x7f);
    // The 10th byte holds bit 63 only: more would be lost in the shift
    // (and the value would re-encode shorter).
    if ((bits << shift) >> shift != bits) return false;
    result |= bits << shift;
    if (!(byte & 0x80)) {
      // Reject overlong forms, so every value has one encoding.
      if ((byte == 0 && shift > 0) || result > max) return false;
      *value = result;
      return true;
    }
  }
  return false;
}

}  // namespace zonepath::paths_internal

#endif  // ZONEPATH_PATHS_BIT_STREAM_H_
