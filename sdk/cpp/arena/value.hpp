// arena/value.hpp: a JSON value tree, for the any-game path (arena/any.hpp) and for bots that want
// a message as it came. The game headers do not use it: they decode straight into their structs.
//
// Reading follows protojson as the rest of the kit does: field() finds a member by its proto name
// or its lowerCamelCase name, a missing member reads as null, and the as_* accessors read null (or
// a value of another type) as the default; 64-bit integers may be strings. A number keeps its
// text, so an int64 goes back out exactly as it came.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"

namespace arena::json {

class Value {
 public:
  enum class Kind { Null, Bool, Number, String, Array, Object };
  using Items = std::vector<Value>;
  using Members = std::vector<std::pair<std::string, Value>>;

  Value() = default;  // null
  Value(std::nullptr_t) {}
  Value(bool b) : kind_(Kind::Bool), bool_(b) {}
  Value(int v) : Value(static_cast<std::int64_t>(v)) {}
  Value(std::int64_t v) : kind_(Kind::Number) { append_int(text_, v); }
  Value(double v) : kind_(Kind::Number) { append_double(text_, v); }
  Value(const char* s) : kind_(Kind::String), text_(s ? s : "") {}
  Value(std::string s) : kind_(Kind::String), text_(std::move(s)) {}
  Value(std::string_view s) : kind_(Kind::String), text_(s) {}

  // object makes an object of the members, in order: Value::object({{"call", "HEADS"}}).
  static Value object(std::initializer_list<std::pair<std::string, Value>> members = {}) {
    Value v;
    v.kind_ = Kind::Object;
    v.members_.assign(members.begin(), members.end());
    return v;
  }
  // array makes an array of the items: Value::array({1, 2, 3}).
  static Value array(std::initializer_list<Value> items = {}) {
    Value v;
    v.kind_ = Kind::Array;
    v.items_.assign(items.begin(), items.end());
    return v;
  }
  // number_text makes a number from JSON number text as the reader checked it.
  static Value number_text(std::string_view t) {
    Value v;
    v.kind_ = Kind::Number;
    v.text_ = t;
    return v;
  }

  Kind kind() const noexcept { return kind_; }
  bool is_null() const noexcept { return kind_ == Kind::Null; }
  bool is_object() const noexcept { return kind_ == Kind::Object; }

  // field is the member named `name` (exactly, or as name_is matches a proto name to its
  // lowerCamelCase JSON name), or null when there is none or this is not an object.
  const Value& field(std::string_view name) const {
    for (const auto& [k, v] : members_)
      if (k == name) return v;
    for (const auto& [k, v] : members_)
      if (name_is(k, name)) return v;
    return null_value();
  }
  const Value& operator[](std::string_view name) const { return field(name); }

  // set adds or replaces a member (this becomes an object if it was null); returns *this.
  Value& set(std::string key, Value v) {
    if (kind_ == Kind::Null) kind_ = Kind::Object;
    for (auto& [k, old] : members_)
      if (k == key) {
        old = std::move(v);
        return *this;
      }
    members_.emplace_back(std::move(key), std::move(v));
    return *this;
  }
  // push appends an item (this becomes an array if it was null); returns *this.
  Value& push(Value v) {
    if (kind_ == Kind::Null) kind_ = Kind::Array;
    items_.push_back(std::move(v));
    return *this;
  }

  bool as_bool() const noexcept { return kind_ == Kind::Bool && bool_; }
  // as_string is a string's text ("" for anything else).
  const std::string& as_string() const { return kind_ == Kind::String ? text_ : empty_string(); }
  // as_int64 reads a number or a string holding one (protojson's int64); 0 when it is neither.
  std::int64_t as_int64() const {
    return read_scalar<std::int64_t>([](Reader& r) { return r.int64(); });
  }
  // as_double reads a number, or a string holding one or "NaN", "Infinity", "-Infinity".
  double as_double() const {
    return read_scalar<double>([](Reader& r) { return r.number(); });
  }
  const Items& items() const noexcept { return items_; }
  const Members& members() const noexcept { return members_; }

  // dump is the value as compact JSON.
  std::string dump() const {
    std::string out;
    append_to(out);
    return out;
  }

  void append_to(std::string& out) const {
    switch (kind_) {
      case Kind::Null: out += "null"; break;
      case Kind::Bool: out += bool_ ? "true" : "false"; break;
      case Kind::Number: out += text_; break;
      case Kind::String: append_string(out, text_); break;
      case Kind::Array:
        out += '[';
        for (std::size_t i = 0; i < items_.size(); ++i) {
          if (i) out += ',';
          items_[i].append_to(out);
        }
        out += ']';
        break;
      case Kind::Object:
        out += '{';
        for (std::size_t i = 0; i < members_.size(); ++i) {
          if (i) out += ',';
          append_string(out, members_[i].first);
          out += ':';
          members_[i].second.append_to(out);
        }
        out += '}';
        break;
    }
  }

  bool operator==(const Value& o) const {
    return kind_ == o.kind_ && bool_ == o.bool_ && text_ == o.text_ && items_ == o.items_ && members_ == o.members_;
  }

  // read reads the value that comes next in r (any type; nesting is bounded by the reader).
  static Value read(Reader& r) {
    Value v;
    switch (r.kind()) {
      case '{':
        v.kind_ = Kind::Object;
        r.object([&](std::string_view k) {
          std::string key(k);  // k is only valid until the value is read
          v.members_.emplace_back(std::move(key), read(r));
        });
        break;
      case '[':
        v.kind_ = Kind::Array;
        r.array([&] { v.items_.push_back(read(r)); });
        break;
      case '"': v = Value(r.string()); break;
      case 't':
      case 'f': v = Value(r.boolean()); break;
      case 'n': r.is_null(); break;
      default: v = number_text(r.number_text()); break;
    }
    return v;
  }

  // parse reads one JSON text (nothing but white space after the value); json::Error when it is
  // not JSON.
  static Value parse(std::string_view text) {
    Reader r(text);
    Value v = read(r);
    r.finish();
    return v;
  }

 private:
  // read_scalar reads a number or string with the reader's own rules; 0 when it cannot.
  template <class T, class F>
  T read_scalar(F&& read) const {
    if (kind_ != Kind::Number && kind_ != Kind::String) return T{};
    std::string json;
    if (kind_ == Kind::String) append_string(json, text_);
    else json = text_;
    try {
      Reader r(json);
      return read(r);
    } catch (const Error&) {
      return T{};
    }
  }

  static const Value& null_value() {
    static const Value v;
    return v;
  }
  static const std::string& empty_string() {
    static const std::string s;
    return s;
  }

  Kind kind_ = Kind::Null;
  bool bool_ = false;
  std::string text_;  // a string's text, or a number's JSON text
  Items items_;
  Members members_;
};

}  // namespace arena::json
