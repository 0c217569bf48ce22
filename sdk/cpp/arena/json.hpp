// arena/json.hpp: the kit's own JSON, just enough for the canonical protobuf JSON mapping.
//
// Reader is a pull parser over one line: the message decoders in wire.hpp walk an object key by
// key and read each value with the type they expect, skipping the keys they do not know. No
// tree is built, so a 6 MB auction setup costs its vector of strings and nothing more. A value
// of the wrong type is a json::Error; null reads as the field's default, as in protojson.
//
// The append_* functions write JSON text into a std::string (the answer line being built).
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace arena::json {

// Error is a line that is not the JSON a message decoder expected.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// name_is reports whether a JSON key names the proto field `snake`: either the proto name itself
// ("own_dynamite_left") or its lowerCamelCase JSON name ("ownDynamiteLeft").
constexpr bool name_is(std::string_view key, std::string_view snake) noexcept {
  std::size_t i = 0, j = 0;
  bool exact = key.size() == snake.size();
  if (exact && key == snake) return true;
  while (i < snake.size() && j < key.size()) {
    char c = snake[i];
    if (c == '_' && i + 1 < snake.size() && snake[i + 1] >= 'a' && snake[i + 1] <= 'z') {
      if (key[j] != static_cast<char>(snake[i + 1] - 'a' + 'A')) return false;
      i += 2;
    } else {
      if (key[j] != c) return false;
      ++i;
    }
    ++j;
  }
  return i == snake.size() && j == key.size();
}

namespace detail {

inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// utf8_length is the length of the well-formed UTF-8 sequence at s[i], or 0 when there is none
// (overlong forms, surrogates and code points past U+10FFFF are not well-formed).
inline std::size_t utf8_length(std::string_view s, std::size_t i) noexcept {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  std::size_t n = s.size() - i;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return n >= 2 && (b(i + 1) & 0xC0) == 0x80 ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (n < 3 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80) return 0;
    if (c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (n < 4 || (b(i + 1) & 0xC0) != 0x80 || (b(i + 2) & 0xC0) != 0x80 || (b(i + 3) & 0xC0) != 0x80)
      return 0;
    if (c == 0xF0 && b(i + 1) < 0x90) return 0;  // overlong
    if (c == 0xF4 && b(i + 1) >= 0x90) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace detail

// valid_utf8 reports whether s is well-formed UTF-8 (what a protobuf string must be).
inline bool valid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    std::size_t n = detail::utf8_length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// append_string writes s as a JSON string. Bytes that are not well-formed UTF-8 become U+FFFD, so
// the line stays valid whatever a bot's message holds.
inline void append_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t n = detail::utf8_length(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";
        ++i;
      } else {
        out.append(s.data() + i, n);
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

// append_int writes a 32-bit (or smaller) integer as a JSON number.
inline void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// append_int64 writes a 64-bit integer as protojson does: a JSON string of its decimal digits.
inline void append_int64(std::string& out, std::int64_t v) {
  out += '"';
  append_int(out, v);
  out += '"';
}

// append_double writes a double as protojson does: the shortest text that reads back the same
// value, and "NaN", "Infinity" or "-Infinity" as strings.
inline void append_double(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "\"NaN\"";
  } else if (std::isinf(v)) {
    out += v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else {
    char buf[40];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
}

// Reader reads one JSON text, value by value. Every method throws json::Error on bad input.
class Reader {
 public:
  explicit Reader(std::string_view text) noexcept : s_(text) {}

  // object calls on_key(key) for every key of the object that comes next; on_key must consume the
  // key's value (read it, or skip() it) before it returns. null is an object without keys. The
  // key is only valid until the value is read.
  template <class F>
  void object(F&& on_key) {
    ws();
    if (try_literal("null")) return;
    expect('{', "an object");
    Depth guard(*this);
    ws();
    if (peek() == '}') {
      ++i_;
      return;
    }
    std::string scratch;
    for (;;) {
      ws();
      if (peek() != '"') fail("expected a string key");
      std::string_view key = string_view_into(scratch);
      ws();
      expect(':', "':' after a key");
      on_key(key);
      ws();
      char c = next();
      if (c == '}') return;
      if (c != ',') fail("expected ',' or '}' in an object");
    }
  }

  // array calls on_item() for every element of the array that comes next; on_item must consume
  // one value. null is an empty array.
  template <class F>
  void array(F&& on_item) {
    ws();
    if (try_literal("null")) return;
    expect('[', "an array");
    Depth guard(*this);
    ws();
    if (peek() == ']') {
      ++i_;
      return;
    }
    for (;;) {
      on_item();
      ws();
      char c = next();
      if (c == ']') return;
      if (c != ',') fail("expected ',' or ']' in an array");
    }
  }

  // is_null consumes a null if one comes next.
  bool is_null() {
    ws();
    return try_literal("null");
  }

  // skip consumes one value of any type (an unknown field).
  void skip() {
    ws();
    switch (peek()) {
      case '{': object([this](std::string_view) { skip(); }); break;
      case '[': array([this] { skip(); }); break;
      case '"': {
        std::string scratch;
        string_view_into(scratch);
        break;
      }
      case 't': literal("true"); break;
      case 'f': literal("false"); break;
      case 'n': literal("null"); break;
      default: number_token(); break;
    }
  }

  std::string string() {
    ws();
    if (try_literal("null")) return {};
    if (peek() != '"') fail("expected a string");
    std::string scratch;
    std::string_view v = string_view_into(scratch);
    return std::string(v);
  }

  bool boolean() {
    ws();
    if (try_literal("true")) return true;
    if (try_literal("false") || try_literal("null")) return false;
    fail("expected true or false");
  }

  // int64 reads an integer given as a number or as a string (protojson writes 64-bit integers
  // as strings); an exponent or a fraction of zero is accepted, as protojson accepts them.
  std::int64_t int64() {
    ws();
    if (try_literal("null")) return 0;
    if (peek() == '"') {
      std::string scratch;
      std::string_view v = string_view_into(scratch);
      return parse_integer(v);
    }
    return parse_integer(number_token());
  }

  std::int32_t int32() {
    std::int64_t v = int64();
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
      fail("integer out of the range of int32");
    return static_cast<std::int32_t>(v);
  }

  // number reads a double: a number, or a string holding one, "NaN", "Infinity" or "-Infinity".
  double number() {
    ws();
    if (try_literal("null")) return 0;
    if (peek() == '"') {
      std::string scratch;
      std::string_view v = string_view_into(scratch);
      if (v == "NaN") return std::numeric_limits<double>::quiet_NaN();
      if (v == "Infinity") return std::numeric_limits<double>::infinity();
      if (v == "-Infinity") return -std::numeric_limits<double>::infinity();
      return parse_double(v);
    }
    return parse_double(number_token());
  }

  // enumeration reads an enum given by name (its index in names) or by number. A name or number
  // this kit does not know reads as 0, UNSPECIFIED, as the protocol asks of a v1 bot.
  template <std::size_t N>
  std::int32_t enumeration(const std::array<std::string_view, N>& names) {
    ws();
    if (try_literal("null")) return 0;
    if (peek() == '"') {
      std::string scratch;
      std::string_view v = string_view_into(scratch);
      for (std::size_t k = 0; k < N; ++k)
        if (names[k] == v) return static_cast<std::int32_t>(k);
      return 0;
    }
    std::int64_t v = parse_integer(number_token());
    return v >= 0 && v < static_cast<std::int64_t>(N) ? static_cast<std::int32_t>(v) : 0;
  }

  // finish checks that nothing but white space follows the value read.
  void finish() {
    ws();
    if (i_ != s_.size()) fail("unexpected text after the JSON value");
  }

  bool at_object() {
    ws();
    return peek() == '{';
  }

  std::size_t offset() const noexcept { return i_; }

  // kind is the first character of the value that comes next ('{', '[', '"', 't', 'f', 'n', or
  // a number's first character; '\0' at the end), consuming only white space.
  char kind() noexcept {
    ws();
    return peek();
  }

  // raw consumes one value and returns its JSON text (a view into the line): a message the
  // reader does not decode now (a game's setup or observation, decoded by its game).
  std::string_view raw() {
    ws();
    std::size_t start = i_;
    skip();
    return s_.substr(start, i_ - start);
  }

  // number_text consumes a JSON number and returns its text, checked to be one.
  std::string_view number_text() {
    ws();
    std::string_view t = number_token();
    parse_double(t);
    return t;
  }

 private:
  static constexpr int kMaxDepth = 200;

  struct Depth {
    Reader& r;
    explicit Depth(Reader& rr) : r(rr) {
      if (++r.depth_ > kMaxDepth) r.fail("nested too deeply");
    }
    ~Depth() { --r.depth_; }
  };

  [[noreturn]] void fail(const char* what) const {
    throw Error(std::string(what) + " at offset " + std::to_string(i_));
  }

  char peek() const noexcept { return i_ < s_.size() ? s_[i_] : '\0'; }

  char next() {
    if (i_ >= s_.size()) fail("unexpected end of the line");
    return s_[i_++];
  }

  void ws() noexcept {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  void expect(char c, const char* what) {
    if (peek() != c) fail((std::string("expected ") + what).c_str());
    ++i_;
  }

  bool try_literal(std::string_view lit) noexcept {
    if (s_.substr(i_, lit.size()) != lit) return false;
    i_ += lit.size();
    return true;
  }

  void literal(std::string_view lit) {
    if (!try_literal(lit)) fail("invalid literal");
  }

  // number_token consumes a JSON number and returns its text.
  std::string_view number_token() {
    std::size_t start = i_;
    auto digits = [&] {
      std::size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - d;
    };
    if (peek() == '-') ++i_;
    if (peek() == '0') {
      ++i_;
    } else if (digits() == 0) {
      fail("expected a value");
    }
    if (peek() == '.') {
      ++i_;
      if (digits() == 0) fail("expected digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++i_;
      if (peek() == '+' || peek() == '-') ++i_;
      if (digits() == 0) fail("expected digits in an exponent");
    }
    return s_.substr(start, i_ - start);
  }

  std::int64_t parse_integer(std::string_view t) const {
    if (t.empty()) fail("expected an integer");
    std::int64_t v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (r.ec == std::errc() && r.ptr == t.data() + t.size()) return v;
    if (r.ec == std::errc::result_out_of_range) fail("integer out of the range of int64");
    // 1e3, 5.0: a whole number written another way.
    double d = parse_double(t);
    if (d != std::floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
      fail("expected a whole number");
    return static_cast<std::int64_t>(d);
  }

  double parse_double(std::string_view t) const {
    // JSON's grammar, which from_chars is laxer than (it takes "1." and "inf").
    Reader check(t);
    try {
      check.number_token();
    } catch (const Error&) {
      fail("expected a number");
    }
    if (check.i_ != t.size()) fail("expected a number");
    double d = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), d);
    if (r.ec == std::errc::result_out_of_range) {
      // Overflow is an error (as in protojson); underflow is zero. The magnitude is the count of
      // integer digits (without leading zeros) plus the exponent: past 308 it overflowed.
      std::size_t k = t[0] == '-' ? 1 : 0;
      long magnitude = 0;
      while (k < t.size() && t[k] == '0') ++k;
      while (k < t.size() && t[k] >= '0' && t[k] <= '9') ++k, ++magnitude;
      std::size_t e = t.find_first_of("eE");
      if (e != std::string_view::npos) {
        bool neg = t[e + 1] == '-';
        long x = 0;
        for (std::size_t q = e + 1; q < t.size(); ++q)
          if (t[q] >= '0' && t[q] <= '9' && x < 100000) x = x * 10 + (t[q] - '0');
        magnitude += neg ? -x : x;
      }
      if (magnitude > 0) fail("number out of the range of double");
      return 0.0;
    }
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) fail("expected a number");
    return d;
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = next();
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else fail("invalid \\u escape");
    }
    return v;
  }

  // string_view_into consumes a string. Without escapes the result points into the line;
  // otherwise it is unescaped into scratch.
  std::string_view string_view_into(std::string& scratch) {
    ++i_;  // the opening quote
    std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\\' && static_cast<unsigned char>(s_[i_]) >= 0x20)
      ++i_;
    if (i_ >= s_.size()) fail("unterminated string");
    if (s_[i_] == '"') return s_.substr(start, i_++ - start);
    scratch.assign(s_.data() + start, i_ - start);
    for (;;) {
      char c = next();
      if (c == '"') return scratch;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        scratch += c;
        continue;
      }
      char e = next();
      switch (e) {
        case '"': scratch += '"'; break;
        case '\\': scratch += '\\'; break;
        case '/': scratch += '/'; break;
        case 'b': scratch += '\b'; break;
        case 'f': scratch += '\f'; break;
        case 'n': scratch += '\n'; break;
        case 'r': scratch += '\r'; break;
        case 't': scratch += '\t'; break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (s_.substr(i_, 2) == "\\u") {
              std::size_t save = i_;
              i_ += 2;
              std::uint32_t lo = hex4();
              if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              } else {
                i_ = save;
                cp = 0xFFFD;
              }
            } else {
              cp = 0xFFFD;
            }
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = 0xFFFD;  // a lone low surrogate
          }
          detail::append_utf8(scratch, cp);
          break;
        }
        default: fail("invalid escape in a string");
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace arena::json
