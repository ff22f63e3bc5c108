/// @file Bytes.h
/// Little-endian fields of cache files.
///
/// Cache files are written field by field, little-endian, so that their bytes do not depend on a
/// compiler's struct layout or the host's byte order.
#ifndef TK_CACHE_BYTES_H
#define TK_CACHE_BYTES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tk::cache {

inline void put_le(std::string &out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

inline std::uint64_t get_le(const unsigned char *p, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= std::uint64_t{p[i]} << (8 * i);
  return value;
}

/// Reads little-endian fields from a byte string; any read past the end clears `ok` and every
/// later read returns zero or empty, so parsers check `ok` once at the end.
class reader {
public:
  explicit reader(std::string_view bytes) : bytes_(bytes) {}

  std::uint64_t integer(int width) {
    if (!ok_ || remaining() < static_cast<std::size_t>(width)) {
      ok_ = false;
      return 0;
    }
    const auto *p = reinterpret_cast<const unsigned char *>(bytes_.data() + pos_);
    pos_ += static_cast<std::size_t>(width);
    return get_le(p, width);
  }
  std::string_view bytes(std::uint64_t n) {
    if (!ok_ || remaining() < n) {
      ok_ = false;
      return {};
    }
    std::string_view out = bytes_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }
  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }
  bool ok() const { return ok_; }

private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

} // namespace tk::cache

#endif // TK_CACHE_BYTES_H
