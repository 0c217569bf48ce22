package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kit's own small JSON reader and writer, enough for the canonical protobuf JSON mapping of
 * the {@code arena.v1} messages: objects become {@link Obj}, arrays {@code List<Object>}, strings
 * {@code String}, numbers {@link Num} (their text, parsed only when a field is read), booleans
 * {@code Boolean}, and {@code null} is read as an absent field.
 *
 * <p>Reading follows protojson: a field is looked up by its lowerCamelCase name and then by its
 * proto name ({@code matchId}, then {@code match_id}); a missing field is its default; int64
 * values come as strings or numbers; enums by name or number; unknown fields are ignored.
 */
public final class Json {
    private Json() {}

    /** A JSON number, kept as its text until a field reads it. */
    public record Num(String text) {}

    /** Thrown for a line that is not JSON. */
    public static final class SyntaxError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SyntaxError(String message) {
            super(message);
        }
    }

    private static final int MAX_DEPTH = 200;

    /** Parses one JSON text (one line of the protocol). */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        p.skipSpace();
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected data after the value");
        }
        return v;
    }

    /** Parses a JSON object; anything else is a syntax error. */
    public static Obj parseObject(String text) {
        Object v = parse(text);
        if (!(v instanceof Obj o)) {
            throw new SyntaxError("the line is not a JSON object");
        }
        return o;
    }

    private static final class Parser {
        final String s;
        int pos;

        Parser(String s) {
            this.s = s;
        }

        SyntaxError error(String what) {
            return new SyntaxError(what + " at offset " + pos);
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        Object value(int depth) {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object(depth + 1);
                case '[':
                    return array(depth + 1);
                case '"':
                    return string();
                case 't':
                    literal("true");
                    return Boolean.TRUE;
                case 'f':
                    literal("false");
                    return Boolean.FALSE;
                case 'n':
                    literal("null");
                    return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected character '" + c + "'");
            }
        }

        void literal(String word) {
            if (!s.startsWith(word, pos)) {
                throw error("invalid literal");
            }
            pos += word.length();
        }

        Obj object(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nested too deeply");
            }
            pos++; // {
            Map<String, Object> m = new LinkedHashMap<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return new Obj(m);
            }
            while (true) {
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != '"') {
                    throw error("expected a field name");
                }
                String key = string();
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != ':') {
                    throw error("expected ':'");
                }
                pos++;
                skipSpace();
                m.put(key, value(depth));
                skipSpace();
                if (pos >= s.length()) {
                    throw error("unexpected end of input in an object");
                }
                char c = s.charAt(pos++);
                if (c == '}') {
                    return new Obj(m);
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or '}'");
                }
            }
        }

        List<Object> array(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nested too deeply");
            }
            pos++; // [
            List<Object> list = new ArrayList<>();
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipSpace();
                list.add(value(depth));
                skipSpace();
                if (pos >= s.length()) {
                    throw error("unexpected end of input in an array");
                }
                char c = s.charAt(pos++);
                if (c == ']') {
                    return list;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or ']'");
                }
            }
        }

        String string() {
            pos++; // opening quote
            int start = pos;
            // Fast path: no escapes.
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '"') {
                    return s.substring(start, pos++);
                }
                if (c == '\\' || c < 0x20) {
                    break;
                }
                pos++;
            }
            StringBuilder b = new StringBuilder(s.length() - start);
            b.append(s, start, pos);
            while (pos < s.length()) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    pos--;
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    break;
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        int cp = 0;
                        for (int i = 0; i < 4; i++) {
                            int d = Character.digit(s.charAt(pos++), 16);
                            if (d < 0) {
                                throw error("bad \\u escape");
                            }
                            cp = cp * 16 + d;
                        }
                        b.append((char) cp);
                    }
                    default -> {
                        pos--;
                        throw error("bad escape '\\" + e + "'");
                    }
                }
            }
            throw error("unterminated string");
        }

        Num number() {
            int start = pos;
            if (s.charAt(pos) == '-') {
                pos++;
            }
            int digits = pos;
            while (pos < s.length() && isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos == digits || (s.charAt(digits) == '0' && pos - digits > 1)) {
                throw error("bad number");
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                pos++;
                int f = pos;
                while (pos < s.length() && isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (pos == f) {
                    throw error("bad number");
                }
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
                    pos++;
                }
                int x = pos;
                while (pos < s.length() && isDigit(s.charAt(pos))) {
                    pos++;
                }
                if (pos == x) {
                    throw error("bad number");
                }
            }
            return new Num(s.substring(start, pos));
        }

        static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }

    // lowerCamelCase name -> proto name, computed once per field name.
    private static final Map<String, String> SNAKE = new HashMap<>();

    static String snake(String camel) {
        String s = SNAKE.get(camel);
        if (s == null) {
            StringBuilder b = new StringBuilder(camel.length() + 4);
            for (int i = 0; i < camel.length(); i++) {
                char c = camel.charAt(i);
                if (c >= 'A' && c <= 'Z') {
                    b.append('_').append((char) (c + ('a' - 'A')));
                } else {
                    b.append(c);
                }
            }
            s = b.toString();
            SNAKE.put(camel, s);
        }
        return s;
    }

    /** Thrown when a field holds a value of the wrong JSON type. */
    public static final class TypeError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TypeError(String message) {
            super(message);
        }
    }

    /** A JSON object, read field by field with protojson's rules. */
    public static final class Obj {
        private final Map<String, Object> fields;

        Obj(Map<String, Object> fields) {
            this.fields = fields;
        }

        /** The raw fields, in the order they came. */
        public Map<String, Object> fields() {
            return Collections.unmodifiableMap(fields);
        }

        /** The field's value by its lowerCamelCase name or its proto name; null when absent. */
        public Object get(String camel) {
            Object v = fields.get(camel);
            if (v == null) {
                v = fields.get(snake(camel));
            }
            return v;
        }

        public boolean has(String camel) {
            return get(camel) != null;
        }

        public String str(String camel) {
            Object v = get(camel);
            if (v == null) {
                return "";
            }
            if (v instanceof String s) {
                return s;
            }
            throw new TypeError("field " + camel + " is not a string");
        }

        public long i64(String camel) {
            return toLong(get(camel), camel);
        }

        public int i32(String camel) {
            long v = toLong(get(camel), camel);
            if (v != (int) v) {
                throw new TypeError("field " + camel + " is out of the int32 range");
            }
            return (int) v;
        }

        public double dbl(String camel) {
            return toDouble(get(camel), camel);
        }

        public boolean bool(String camel) {
            Object v = get(camel);
            if (v == null) {
                return false;
            }
            if (v instanceof Boolean b) {
                return b;
            }
            throw new TypeError("field " + camel + " is not a boolean");
        }

        /** An enum field: its number, from a name in {@code names} (indexed by number) or a
         *  number; an unknown name is 0, as protobuf treats an unknown value like UNSPECIFIED. */
        public int enumValue(String camel, String[] names) {
            return toEnum(get(camel), names, camel);
        }

        /** A message field; null when absent. */
        public Obj obj(String camel) {
            Object v = get(camel);
            if (v == null || v instanceof Obj) {
                return (Obj) v;
            }
            throw new TypeError("field " + camel + " is not an object");
        }

        /** A repeated field; empty when absent. */
        public List<Object> list(String camel) {
            Object v = get(camel);
            if (v == null) {
                return List.of();
            }
            if (v instanceof List<?> l) {
                @SuppressWarnings("unchecked")
                List<Object> r = (List<Object>) l;
                return r;
            }
            throw new TypeError("field " + camel + " is not an array");
        }

        /** A repeated string field. */
        public List<String> strings(String camel) {
            List<Object> l = list(camel);
            List<String> out = new ArrayList<>(l.size());
            for (Object o : l) {
                if (!(o instanceof String s)) {
                    throw new TypeError("field " + camel + " holds a value that is not a string");
                }
                out.add(s);
            }
            return out;
        }

        /** A map field: the JSON object itself (its keys are map keys, never renamed). */
        public Map<String, Object> map(String camel) {
            Obj o = obj(camel);
            return o == null ? Map.of() : o.fields;
        }

        /** The object as compact JSON. */
        @Override
        public String toString() {
            return write(new StringBuilder(), this).toString();
        }
    }

    static long toLong(Object v, String what) {
        if (v == null) {
            return 0;
        }
        String t;
        if (v instanceof Num n) {
            t = n.text();
        } else if (v instanceof String s) {
            t = s.trim();
        } else {
            throw new TypeError("field " + what + " is not a number");
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            // 1e3, 12.0: whole numbers in another spelling, as protojson accepts them.
            try {
                return new java.math.BigDecimal(t).longValueExact();
            } catch (NumberFormatException | ArithmeticException e2) {
                throw new TypeError("field " + what + " is not a whole int64: " + t);
            }
        }
    }

    static double toDouble(Object v, String what) {
        if (v == null) {
            return 0;
        }
        if (v instanceof Num n) {
            return Double.parseDouble(n.text());
        }
        if (v instanceof String s) {
            switch (s) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    try {
                        return Double.parseDouble(s.trim());
                    } catch (NumberFormatException e) {
                        throw new TypeError("field " + what + " is not a number: " + s);
                    }
            }
        }
        throw new TypeError("field " + what + " is not a number");
    }

    static int toEnum(Object v, String[] names, String what) {
        if (v == null) {
            return 0;
        }
        if (v instanceof String s) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(s)) {
                    return i;
                }
            }
            return 0;
        }
        if (v instanceof Num) {
            long n = toLong(v, what);
            return n >= 0 && n < names.length ? (int) n : 0;
        }
        throw new TypeError("field " + what + " is not an enum name or number");
    }

    // ---- writing --------------------------------------------------------------------------

    /**
     * An object of the given members, in order: {@code Json.object("call", "HEADS", "round", 3)}.
     * Values are what {@link #write} takes.
     */
    public static Obj object(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("Json.object takes keys and values in pairs, got "
                    + keysAndValues.length + " arguments");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (!(keysAndValues[i] instanceof String k)) {
                throw new IllegalArgumentException("Json.object: key " + (i / 2) + " is not a String: "
                        + keysAndValues[i]);
            }
            m.put(k, keysAndValues[i + 1]);
        }
        return new Obj(m);
    }

    /**
     * Appends v as compact JSON. v is what {@link #parse} returns ({@link Obj}, {@code List},
     * {@code String}, {@link Num}, {@code Boolean}, null) or a {@code Map} with String keys, a
     * {@code Collection}, or any {@code Number} (a double as {@link #number} writes it); anything
     * else is an IllegalArgumentException naming its type.
     */
    public static StringBuilder write(StringBuilder b, Object v) {
        return write(b, v, 0);
    }

    private static StringBuilder write(StringBuilder b, Object v, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("the value nests deeper than " + MAX_DEPTH + " levels (a cycle?)");
        }
        if (v == null) {
            return b.append("null");
        }
        if (v instanceof Obj o) {
            v = o.fields;
        }
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new IllegalArgumentException("a JSON object's key must be a String, not " + e.getKey());
                }
                quote(b.append(sep), k).append(':');
                write(b, e.getValue(), depth + 1);
                sep = ",";
            }
            return b.append('}');
        }
        if (v instanceof java.util.Collection<?> c) {
            b.append('[');
            String sep = "";
            for (Object item : c) {
                write(b.append(sep), item, depth + 1);
                sep = ",";
            }
            return b.append(']');
        }
        if (v instanceof String s) {
            return quote(b, s);
        }
        if (v instanceof Num n) {
            return b.append(n.text());
        }
        if (v instanceof Boolean x) {
            return b.append(x.booleanValue());
        }
        if (v instanceof Double || v instanceof Float) {
            return number(b, ((Number) v).doubleValue());
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
                || v instanceof java.math.BigInteger || v instanceof java.math.BigDecimal) {
            return b.append(v);
        }
        throw new IllegalArgumentException("cannot write a " + v.getClass().getName() + " as JSON");
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Appends s as a JSON string: quotes, escapes, control characters and surrogates as \\u. */
    public static StringBuilder quote(StringBuilder b, String s) {
        b.append('"');
        int n = s.length();
        int run = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0xD800 || c > 0xDFFF)) {
                continue;
            }
            b.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15])
                        .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            }
        }
        b.append(s, run, n);
        return b.append('"');
    }

    /** Appends a double as protojson writes it: whole numbers without a fraction, NaN and the
     *  infinities as the strings "NaN", "Infinity", "-Infinity". */
    public static StringBuilder number(StringBuilder b, double d) {
        if (Double.isNaN(d)) {
            return b.append("\"NaN\"");
        }
        if (Double.isInfinite(d)) {
            return b.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return b.append((long) d);
        }
        return b.append(d);
    }
}
