//! The kit's own small JSON reader and writer: just what the arena's lines need.
//!
//! [`parse`] turns one line into a [`Value`] tree. The `field_*` accessors read a message
//! field the way protojson does: by its lowerCamelCase name or its proto (snake_case) name,
//! a missing field or `null` as the default, 64-bit integers as strings or numbers, enums by
//! name or number. A field of the wrong type also reads as its default (the kit never fails
//! on a field it does not need). [`write_str`] writes a JSON string with the escapes it needs.

use std::fmt;

/// A parsed JSON value. Object members keep their order (messages are small; lookups are
/// linear). Numbers compare by value (`Int(1000) == Float(1000.0)`).
#[derive(Clone, Debug)]
pub enum Value {
    Null,
    Bool(bool),
    /// A number written without fraction or exponent that fits an `i64`.
    Int(i64),
    /// Any other number.
    Float(f64),
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Null, Null) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (Float(a), Float(b)) => a == b,
            (Int(a), Float(b)) | (Float(b), Int(a)) => *a as f64 == *b,
            (Str(a), Str(b)) => a == b,
            (Array(a), Array(b)) => a == b,
            (Object(a), Object(b)) => a == b,
            _ => false,
        }
    }
}

/// Why a line is not JSON, with the byte offset where the reader stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub message: &'static str,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message, self.offset)
    }
}

impl std::error::Error for Error {}

/// Deepest nesting accepted (the arena's messages nest 6 levels at most).
const MAX_DEPTH: usize = 64;

/// Parses one JSON text (surrounding whitespace allowed, nothing else after the value).
pub fn parse(text: &str) -> Result<Value, Error> {
    let mut p = Parser { b: text.as_bytes(), s: text, i: 0 };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.b.len() {
        return Err(p.err("unexpected text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, message: &'static str) -> Error {
        Error { offset: self.i, message }
    }

    fn ws(&mut self) {
        while let Some(&c) = self.b.get(self.i) {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn lit(&mut self, word: &str, v: Value) -> Result<Value, Error> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.err("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, Error> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        match self.b.get(self.i) {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Value::Object(members));
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return Err(self.err("expected a string key"));
                    }
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return Err(self.err("expected ':'"));
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    members.push((key, v));
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::Object(members));
                        }
                        _ => return Err(self.err("expected ',' or '}'")),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.b.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.b.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err(self.err("expected ',' or ']'")),
                    }
                }
            }
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(b't') => self.lit("true", Value::Bool(true)),
            Some(b'f') => self.lit("false", Value::Bool(false)),
            Some(b'n') => self.lit("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("invalid character looking for a value")),
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while matches!(self.b.get(self.i), Some(b'0'..=b'9')) {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Value, Error> {
        let start = self.i;
        if self.b[self.i] == b'-' {
            self.i += 1;
        }
        let int_start = self.i;
        let n = self.digits();
        if n == 0 {
            return Err(self.err("invalid number"));
        }
        if n > 1 && self.b[int_start] == b'0' {
            return Err(self.err("invalid number (leading zero)"));
        }
        let mut integral = true;
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            integral = false;
            if self.digits() == 0 {
                return Err(self.err("invalid number"));
            }
        }
        if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
            self.i += 1;
            integral = false;
            if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("invalid number"));
            }
        }
        let text = &self.s[start..self.i];
        if integral {
            if let Ok(v) = text.parse::<i64>() {
                return Ok(Value::Int(v));
            }
        }
        text.parse::<f64>().map(Value::Float).map_err(|_| self.err("invalid number"))
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let h = self.b.get(self.i..self.i + 4).ok_or_else(|| self.err("short \\u escape"))?;
        let mut v = 0u32;
        for &c in h {
            let d = (c as char).to_digit(16).ok_or_else(|| self.err("invalid \\u escape"))?;
            v = v * 16 + d;
        }
        self.i += 4;
        Ok(v)
    }

    /// A string; self.i is at its opening quote.
    fn string(&mut self) -> Result<String, Error> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&c) = self.b.get(self.i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is a &str and we stopped on ASCII bytes: the slice is whole characters.
            out.push_str(&self.s[start..self.i]);
            match self.b.get(self.i) {
                None => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let c = *self.b.get(self.i).ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&hi) && self.b[self.i..].starts_with(b"\\u") {
                                let save = self.i;
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.i = save; // a lone high surrogate; the next escape stands alone
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(ch.unwrap_or('\u{FFFD}'));
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("invalid escape"));
                        }
                    }
                }
                Some(_) => return Err(self.err("control character in string")),
            }
        }
    }
}

/// Whether an object key names the field `camel` (its lowerCamelCase JSON name) or its proto
/// name (`matchId` / `match_id`).
fn names_field(key: &str, camel: &str) -> bool {
    if key == camel {
        return true;
    }
    let (mut k, mut c) = (key.bytes(), camel.bytes());
    loop {
        match (c.next(), k.next()) {
            (None, None) => return true,
            (Some(cc), Some(kc)) if cc.is_ascii_uppercase() => {
                if kc != b'_' || k.next() != Some(cc.to_ascii_lowercase()) {
                    return false;
                }
            }
            (Some(cc), Some(kc)) if cc == kc => {}
            _ => return false,
        }
    }
}

fn int_of_float(f: f64) -> i64 {
    if f.fract() == 0.0 && (-9.223372036854776e18..9.223372036854776e18).contains(&f) {
        f as i64
    } else {
        0
    }
}

static EMPTY: Vec<Value> = Vec::new();
static EMPTY_MEMBERS: Vec<(String, Value)> = Vec::new();

impl Value {
    /// The field named `camel` (or its snake_case proto name) of an object; `None` when absent,
    /// `null`, or when self is not an object.
    pub fn field(&self, camel: &str) -> Option<&Value> {
        match self {
            Value::Object(members) => members
                .iter()
                .find(|(k, _)| names_field(k, camel))
                .map(|(_, v)| v)
                .filter(|v| !matches!(v, Value::Null)),
            _ => None,
        }
    }

    /// This value as an integer: a number or a string holding one (protojson's int64 form);
    /// 0 for anything else.
    pub fn as_i64(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            Value::Float(f) => int_of_float(*f),
            Value::Str(s) => {
                let s = s.trim();
                s.parse::<i64>().unwrap_or_else(|_| s.parse::<f64>().map(int_of_float).unwrap_or(0))
            }
            _ => 0,
        }
    }

    /// This value as an `i32` (saturating); 0 for anything but a number or numeric string.
    pub fn as_i32(&self) -> i32 {
        self.as_i64().clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }

    /// This value as a double: a number, or a string holding one or `NaN`, `Infinity`,
    /// `-Infinity`; 0.0 for anything else.
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Int(v) => *v as f64,
            Value::Float(f) => *f,
            Value::Str(s) => match s.trim() {
                "NaN" => f64::NAN,
                "Infinity" => f64::INFINITY,
                "-Infinity" => f64::NEG_INFINITY,
                t => t.parse().unwrap_or(0.0),
            },
            _ => 0.0,
        }
    }

    pub fn as_bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// This value as text; "" for anything but a string.
    pub fn as_str(&self) -> &str {
        match self {
            Value::Str(s) => s,
            _ => "",
        }
    }

    /// The items of an array; empty for anything else.
    pub fn items(&self) -> &[Value] {
        match self {
            Value::Array(v) => v,
            _ => &EMPTY,
        }
    }

    /// The members of an object (a protobuf map); empty for anything else.
    pub fn members(&self) -> &[(String, Value)] {
        match self {
            Value::Object(m) => m,
            _ => &EMPTY_MEMBERS,
        }
    }

    /// An enum value given by name (an index into `names`) or by number; an unknown name is 0
    /// (`UNSPECIFIED`), as a v1 reader must treat it.
    pub fn as_enum(&self, names: &[&str]) -> i32 {
        match self {
            Value::Str(s) => match names.iter().position(|n| n == s) {
                Some(i) => i as i32,
                None => s.trim().parse::<i32>().unwrap_or(0),
            },
            v => v.as_i32(),
        }
    }

    pub fn field_i64(&self, camel: &str) -> i64 {
        self.field(camel).map_or(0, Value::as_i64)
    }
    pub fn field_i32(&self, camel: &str) -> i32 {
        self.field(camel).map_or(0, Value::as_i32)
    }
    pub fn field_f64(&self, camel: &str) -> f64 {
        self.field(camel).map_or(0.0, Value::as_f64)
    }
    pub fn field_bool(&self, camel: &str) -> bool {
        self.field(camel).is_some_and(Value::as_bool)
    }
    pub fn field_str(&self, camel: &str) -> &str {
        self.field(camel).map_or("", Value::as_str)
    }
    pub fn field_items(&self, camel: &str) -> &[Value] {
        self.field(camel).map_or(&EMPTY[..], Value::items)
    }
    pub fn field_members(&self, camel: &str) -> &[(String, Value)] {
        self.field(camel).map_or(&EMPTY_MEMBERS[..], Value::members)
    }
    pub fn field_enum(&self, camel: &str, names: &[&str]) -> i32 {
        self.field(camel).map_or(0, |v| v.as_enum(names))
    }
    /// A repeated string field.
    pub fn field_strings(&self, camel: &str) -> Vec<String> {
        self.field_items(camel).iter().map(|v| v.as_str().to_owned()).collect()
    }
}

impl Value {
    /// An object of the given members, in order: `Value::object([("call", "HEADS".into())])`.
    pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Value)>) -> Value {
        Value::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

/// `From` for the scalars, so that `v.into()` or `Value::from(v)` makes a value.
macro_rules! from_scalar {
    ($($t:ty => $make:expr),* $(,)?) => {
        $(impl From<$t> for Value {
            fn from(v: $t) -> Value {
                $make(v)
            }
        })*
    };
}

from_scalar! {
    &str => |s: &str| Value::Str(s.to_owned()),
    String => Value::Str,
    bool => Value::Bool,
    i32 => |i: i32| Value::Int(i.into()),
    i64 => Value::Int,
    f64 => Value::Float,
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(items: Vec<T>) -> Value {
        Value::Array(items.into_iter().map(Into::into).collect())
    }
}

/// Appends `s` to `out` as a JSON string (quotes, backslashes and control characters escaped;
/// everything else as UTF-8).
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            c if (c as u32) < 0x20 => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push_str(esc);
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends a double as protojson writes it: a plain number, or "NaN" / "Infinity" / "-Infinity".
pub fn write_f64(out: &mut String, f: f64) {
    use fmt::Write as _;
    if f.is_nan() {
        out.push_str("\"NaN\"");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "\"Infinity\"" } else { "\"-Infinity\"" });
    } else {
        let _ = write!(out, "{f}");
    }
}

impl fmt::Display for Value {
    /// Compact JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_value(&mut s, self);
        f.write_str(&s)
    }
}

fn write_value(out: &mut String, v: &Value) {
    use fmt::Write as _;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(x) => write_f64(out, *x),
        Value::Str(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_back() {
        let text = r#"{"a":[1,-2,3.5,1e3,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00","c":{}}"#;
        let v = parse(text).unwrap();
        assert_eq!(v.field_items("a")[0], Value::Int(1));
        assert_eq!(v.field_items("a")[3], Value::Float(1000.0));
        assert_eq!(v.field_str("b"), "x\"\\/\n\u{e9}\u{1F600}");
        let again = parse(&v.to_string()).unwrap();
        assert_eq!(v, again);
    }

    #[test]
    fn rejects_malformed() {
        for bad in ["", "{", "{\"a\"}", "[1,]", "01", "\"\\x\"", "tru", "{} x", "\"a\u{1}\"", "1.", "-"] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&deep).is_err());
    }

    #[test]
    fn protojson_reading() {
        let v = parse(r#"{"matchId":"m","own_dynamite_left":7,"step":"12","big":"9007199254740993","e":3,"n":"DYN_B","f":"NaN","x":null}"#).unwrap();
        assert_eq!(v.field_str("matchId"), "m");
        assert_eq!(v.field_i32("ownDynamiteLeft"), 7);
        assert_eq!(v.field_i64("step"), 12);
        assert_eq!(v.field_i64("big"), 9007199254740993);
        assert_eq!(v.field_enum("e", &["A", "B"]), 3);
        assert_eq!(v.field_enum("n", &["DYN_A", "DYN_B"]), 1);
        assert_eq!(v.field_enum("missing", &["A"]), 0);
        assert!(v.field_f64("f").is_nan());
        assert!(v.field("x").is_none());
        assert!(!names_field("match_idx", "matchId"));
        assert!(!names_field("matchid", "matchId"));
    }

    #[test]
    fn escapes() {
        let mut s = String::new();
        write_str(&mut s, "a\"b\\c\nd\u{1}é");
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\u0001é\"");
    }
}
