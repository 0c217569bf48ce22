import arena.Any;
import arena.Arena;
import arena.Auction;
import arena.Bidding;
import arena.Dynamite;
import arena.Finger;
import arena.Game;
import arena.Json;
import arena.Outcome;
import arena.Realtv;
import arena.Result;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Self-test of the Java kit (sdk/java/arena) and of the example bots (examples/java/<game>).
 * Run from the repository root:
 *
 * <pre>
 * javac -d /root/tmp-java-test -sourcepath sdk/java sdk/java/test/SelfTest.java &amp;&amp; java -cp /root/tmp-java-test SelfTest
 * </pre>
 *
 * It feeds the JSON-lines transcripts of sdk/java/test/transcripts (built from the examples of
 * docs/protocol.md section 8, plus malformed input) through the library in this JVM, and through
 * every example bot compiled as the arena's recipe does ({@code javac -sourcepath <kit>}) and run
 * as its own process, then checks every answer line. Scratch files go next to this class (the
 * -d folder). Exits 1 on any failure.
 */
public class SelfTest {
    private static int checks;
    private static final List<String> failures = new ArrayList<>();
    private static String context = "";

    /** Seconds of wall time stretched by the tests' one slack factor, ARENA_TEST_SLACK (default 2;
     *  the Go tests' internal/slack): raise it on a loaded machine. */
    static double slack(double seconds) {
        String raw = System.getenv().getOrDefault("ARENA_TEST_SLACK", "2");
        double f;
        try {
            f = Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            f = Double.NaN;
        }
        if (!(f >= 1 && f <= 1000)) {
            throw new IllegalArgumentException("ARENA_TEST_SLACK=" + raw + ": want a number from 1 to 1000");
        }
        return seconds * f;
    }

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            failures.add(context + ": " + what);
            System.out.println("FAIL " + context + ": " + what);
        }
    }

    static void eq(Object got, Object want, String what) {
        boolean ok = got == null ? want == null : got.equals(want);
        check(ok, what + ": got " + got + ", want " + want);
    }

    static Path root;
    static Path transcripts;
    static Path scratch;

    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        root = Path.of(args.length > 0 ? args[0] : "").toAbsolutePath();
        transcripts = root.resolve("sdk/java/test/transcripts");
        if (!Files.isDirectory(transcripts)) {
            System.out.println("run from the repository root (or give it as the argument): no " + transcripts);
            System.exit(2);
        }
        scratch = Path.of(SelfTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("selftest-scratch");

        run("json", SelfTest::jsonTests);
        run("dynamite", SelfTest::dynamiteTests);
        run("two seats", SelfTest::twoSeatTests);
        run("faults", SelfTest::faultTests);
        run("finger", SelfTest::fingerTests);
        run("bidding", SelfTest::biddingTests);
        run("auction", SelfTest::auctionTests);
        run("realtv", SelfTest::realtvTests);
        run("protocol", SelfTest::protocolTests);
        run("any game as JSON", SelfTest::anyTests);
        for (String g : new String[] {"dynamite", "finger", "bidding", "auction", "realtv"}) {
            run("example " + g, () -> exampleTest(g));
        }
        run("noisy bot process", SelfTest::noisyTest);

        double secs = (System.nanoTime() - t0) / 1e9;
        context = "";
        if (failures.isEmpty()) {
            System.out.printf("ok: %d checks passed in %.1f s%n", checks, secs);
            System.exit(0);
        }
        System.out.printf("FAILED: %d of %d checks failed in %.1f s%n", failures.size(), checks, secs);
        System.exit(1);
    }

    interface Body {
        void run() throws Exception;
    }

    static void run(String name, Body body) {
        context = name;
        try {
            body.run();
        } catch (Throwable t) {
            StringWriter w = new StringWriter();
            t.printStackTrace(new java.io.PrintWriter(w));
            check(false, "threw " + w);
        }
    }

    // ---- helpers -------------------------------------------------------------------------

    static List<String> lines(String transcript) throws IOException {
        List<String> out = new ArrayList<>();
        for (String l : Files.readAllLines(transcripts.resolve(transcript), StandardCharsets.UTF_8)) {
            if (!l.isBlank()) {
                out.add(l);
            }
        }
        return out;
    }

    static String lastStderr = "";

    /** Feeds lines through Arena.run in this JVM and returns the answer lines. */
    static List<String> feed(Arena.Info info, List<Game> games, List<String> in) {
        StringWriter w = new StringWriter();
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        boolean ok;
        try {
            ok = Arena.run(info, games, new BufferedReader(new StringReader(String.join("\n", in) + "\n")), w);
        } finally {
            System.setErr(err);
        }
        lastStderr = log.toString(StandardCharsets.UTF_8);
        check(ok, "run returned false");
        String s = w.toString();
        check(s.isEmpty() || s.endsWith("\n"), "output ends with a newline");
        List<String> out = s.isEmpty() ? List.of() : Arrays.asList(s.split("\n", -1)).subList(0, s.split("\n", -1).length - 1);
        eq(out.size(), in.size(), "one answer line per request line");
        return out;
    }

    static List<String> feed(Game game, List<String> in) {
        return feed(new Arena.Info("t", "test", "0"), List.of(game), in);
    }

    static Json.Obj obj(String line) {
        return Json.parseObject(line);
    }

    static String get(List<String> l, int i) {
        return i < l.size() ? l.get(i) : "{\"missing\":true}";
    }

    /** Checks an act answer: step echoed, no error, and the action of game; returns the action. */
    static Json.Obj action(String answer, String step, String game) {
        Json.Obj a = obj(answer);
        eq(a.str("step"), step, "step echoed in " + answer);
        check(!a.has("error"), "no error in " + answer);
        Json.Obj act = a.obj(game);
        check(act != null, "a " + game + " action in " + answer);
        return act == null ? obj("{}") : act;
    }

    static Json.Obj error(String answer, String step, String kind) {
        Json.Obj a = obj(answer);
        eq(a.str("step"), step, "step echoed in " + answer);
        Json.Obj e = a.obj("error");
        check(e != null, "an error in " + answer);
        if (e == null) {
            return obj("{}");
        }
        eq(e.str("kind"), kind, "error kind");
        check(!e.str("message").contains("\n"), "error message is one line");
        for (String g : new String[] {"dynamite", "finger", "bidding", "auction", "realtv"}) {
            check(!a.has(g), "no action beside the error");
        }
        return e;
    }

    static List<String> with(List<String> base, int at, String... extra) {
        List<String> l = new ArrayList<>(base);
        l.addAll(at, List.of(extra));
        return l;
    }

    // ---- JSON ----------------------------------------------------------------------------

    static void jsonTests() {
        Json.Obj o = obj("{\"a\":\"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",\"n\":-12.5e1,\"i\":\"9007199254740993\","
                + "\"b\":true,\"z\":null,\"l\":[1,[2],{}],\"snake_case\":3}");
        eq(o.str("a"), "x\"\\/\b\f\n\r\t\u00e9\ud83d\ude00", "string escapes");
        eq(o.dbl("n"), -125.0, "double");
        eq(o.i64("i"), 9007199254740993L, "int64 from a string, exactly");
        eq(o.bool("b"), true, "bool");
        check(!o.has("z") && o.str("z").isEmpty() && o.i64("z") == 0, "null reads as absent");
        eq(o.i32("snakeCase"), 3, "proto (snake_case) name accepted");
        eq(o.i32("missing"), 0, "missing int is 0");
        eq(o.list("l").size(), 3, "array");
        eq(Json.parseObject("{\"x\":1e3}").i64("x"), 1000L, "1e3 as int64");
        eq(Json.parseObject("{\"x\":\"NaN\"}").dbl("x"), Double.NaN, "NaN from a string");
        for (String bad : new String[] {"", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "{\"a\":01}",
            "{\"a\":\"\u0001\"}", "{\"a\":tru}", "{} x", "{\"a\":\"\\x\"}", "{\"a\":1.}", "{\"a\":-}"}) {
            boolean threw = false;
            try {
                Json.parse(bad);
            } catch (Json.SyntaxError e) {
                threw = true;
            }
            check(threw, "syntax error for " + bad);
        }
        StringBuilder deep = new StringBuilder();
        deep.append("[".repeat(100_000));
        boolean threw = false;
        try {
            Json.parse(deep.toString());
        } catch (Json.SyntaxError e) {
            threw = true;
        }
        check(threw, "deep nesting is a syntax error, not a stack overflow");
        String tricky = "q\"b\\s/\n\u0001\u2028\ud83d\ude00\udc00 end";
        String quoted = Json.quote(new StringBuilder(), tricky).toString();
        check(!quoted.contains("\n"), "quote keeps one line");
        eq(Json.parseObject("{\"v\":" + quoted + "}").str("v"), tricky.replace('\udc00', '\udc00'), "quote round trip");
        eq(Json.number(new StringBuilder(), 7).toString(), "7", "whole double");
        eq(Json.number(new StringBuilder(), 2.5).toString(), "2.5", "fractional double");
        eq(Json.number(new StringBuilder(), Double.NaN).toString(), "\"NaN\"", "NaN");
        eq(Json.number(new StringBuilder(), Double.NEGATIVE_INFINITY).toString(), "\"-Infinity\"", "-Infinity");
    }

    // ---- dynamite ------------------------------------------------------------------------

    static final class Cycler implements Dynamite.Player {
        static final Dynamite.Move[] ORDER = {Dynamite.Move.ROCK, Dynamite.Move.PAPER, Dynamite.Move.DYNAMITE,
            Dynamite.Move.SCISSORS, Dynamite.Move.WATER};
        final List<List<Dynamite.Round>> seen = new ArrayList<>();
        final List<Long> timeLeft = new ArrayList<>();
        final List<String> budgets = new ArrayList<>();
        Dynamite.Setup setup;
        Outcome<Dynamite.State> outcome;

        @Override
        public void start(Dynamite.Setup s) {
            setup = s;
        }

        @Override
        public Dynamite.Move move(Dynamite.State s) {
            seen.add(List.copyOf(s.rounds()));
            timeLeft.add(s.timeLeftMillis());
            budgets.add(s.cpuClock() + " " + s.budget().toNanos() / 1000 + " " + s.bankRemaining().toNanos() / 1000 + " " + s.wallCapMs());
            return ORDER[(s.round() - 1) % 5];
        }

        @Override
        public void end(Outcome<Dynamite.State> o) {
            outcome = o;
        }
    }

    static Dynamite.Round round(Dynamite.Move a, Dynamite.Move b) {
        return new Dynamite.Round(a, b);
    }

    static void dynamiteTests() throws IOException {
        List<String> in = lines("dynamite.jsonl");
        String end = in.get(in.size() - 1);
        in = new ArrayList<>(in.subList(0, in.size() - 1));
        // A repeated request, proto names, enums and int64 as numbers, unknown fields, then the end.
        in.add(in.get(in.size() - 1));
        in.add("{\"act\":{\"match_id\":\"m-dynamite\",\"step\":6,\"deadline_ms\":250,\"future\":{\"x\":[1]},"
                + "\"clock_mode\":2,\"budget_us\":\"250500\",\"bank_remaining_us\":3000,\"wall_cap_ms\":751,"
                + "\"dynamite\":{\"round\":6,\"last_own\":5,\"last_opponent\":\"DYNAMITE_MOVE_ROCK\",\"own_score\":3,"
                + "\"opponent_score\":\"2\",\"own_dynamite_left\":99,\"opponent_dynamite_left\":100,\"stake\":1,"
                + "\"newField\":\"x\"}},\"extra\":1}");
        in.add(end);
        Cycler[] made = new Cycler[1];
        List<String> out = feed(Dynamite.play(() -> made[0] = new Cycler()), in);
        Cycler c = made[0];
        Json.Obj d = obj(get(out, 0));
        eq(d.str("name"), "t", "describe name");
        eq(d.str("sdk"), "java/0.1.0", "describe sdk");
        eq(d.strings("games"), List.of("dynamite"), "describe games");
        eq(get(out, 1), "{}", "start accepted");
        check(c != null && c.setup != null, "start hook called");
        if (c == null) {
            return;
        }
        eq(c.setup.targetScore(), 1000, "setup target score");
        eq(c.setup.dynamitePerPlayer(), 100, "setup dynamite");
        eq(c.setup.players(), List.of("cycler", "rocky"), "setup players");
        eq(c.setup.deadlineMs(), 1000L, "setup deadline");
        String[] want = {"DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_DYNAMITE", "DYNAMITE_MOVE_SCISSORS",
            "DYNAMITE_MOVE_WATER", "DYNAMITE_MOVE_WATER", "DYNAMITE_MOVE_ROCK"};
        String[] steps = {"1", "2", "3", "4", "5", "5", "6"};
        for (int i = 0; i < want.length; i++) {
            eq(action(get(out, 2 + i), steps[i], "dynamite").str("move"), want[i], "move " + i);
        }
        eq(get(out, 5), "{\"step\":\"4\",\"dynamite\":{\"move\":\"DYNAMITE_MOVE_SCISSORS\"}}",
                "answer-4 of docs/protocol.md, byte for byte");
        eq(get(out, 9), "{}", "end answered {}");
        Dynamite.Move R = Dynamite.Move.ROCK;
        List<Dynamite.Round> full = List.of(round(R, R), round(Dynamite.Move.PAPER, R), round(Dynamite.Move.DYNAMITE, R),
                round(Dynamite.Move.SCISSORS, R), round(Dynamite.Move.WATER, R));
        eq(c.seen.size(), 7, "move called per act");
        for (int i = 0; i < 5; i++) {
            eq(c.seen.get(i), full.subList(0, i), "history before round " + (i + 1));
        }
        eq(c.seen.get(5), full.subList(0, 4), "a repeated request does not append twice");
        eq(c.seen.get(6), full, "history from proto names and enum numbers");
        check(c.timeLeft.get(0) > 500 && c.timeLeft.get(0) <= 1000, "time left from deadlineMs: " + c.timeLeft.get(0));
        check(c.timeLeft.get(6) > 0 && c.timeLeft.get(6) <= 250, "time left from deadline_ms 250: " + c.timeLeft.get(6));
        eq(c.budgets.get(0), "false 1000000 0 1000", "an older host's deadline is the budget and the wall cap");
        eq(c.budgets.get(6), "true 250500 3000 751", "the CPU clock's budget, bank and wall cap");
        check(c.outcome != null, "end hook called");
        if (c.outcome != null) {
            eq(c.outcome.result(), Result.WIN, "end result");
            eq(c.outcome.score(), 1001.0, "end score");
            Dynamite.State s = c.outcome.state();
            eq(s.ownScore(), 1001, "end observation applied");
            eq(s.ownDynamiteLeft(), 0, "absent field read as 0");
            eq(s.rounds().size(), 6, "end observation appends the last round");
            eq(s.last(), round(Dynamite.Move.PAPER, R), "last round from the end");
            boolean ro = false;
            try {
                s.rounds().clear();
            } catch (UnsupportedOperationException e) {
                ro = true;
            }
            check(ro, "history is read-only");
        }
    }

    static void twoSeatTests() {
        List<Cycler> made = new ArrayList<>();
        String start = "{\"start\":{\"matchId\":\"m\",\"seat\":%d,\"game\":\"dynamite\",\"dynamite\":{\"dynamitePerPlayer\":100}}}";
        String act = "{\"act\":{\"matchId\":\"m\",\"seat\":%d,\"step\":\"%d\",\"deadlineMs\":\"1000\",\"dynamite\":{\"round\":%d%s}}}";
        List<String> in = List.of(String.format(start, 0), String.format(start, 1),
                String.format(act, 0, 1, 1, ""), String.format(act, 1, 1, 1, ""),
                String.format(act, 0, 2, 2, ",\"lastOwn\":\"DYNAMITE_MOVE_ROCK\",\"lastOpponent\":\"DYNAMITE_MOVE_PAPER\""),
                String.format(act, 1, 2, 2, ",\"lastOwn\":\"DYNAMITE_MOVE_PAPER\",\"lastOpponent\":\"DYNAMITE_MOVE_ROCK\""),
                "{\"end\":{\"matchId\":\"m\",\"seat\":1,\"result\":\"RESULT_LOSS\"}}",
                String.format(act, 1, 3, 3, ""),
                String.format(act, 0, 3, 3, ""));
        List<String> out = feed(Dynamite.play(() -> {
            Cycler c = new Cycler();
            made.add(c);
            return c;
        }), in);
        eq(made.size(), 2, "one player per seat");
        if (made.size() != 2) {
            return;
        }
        Dynamite.Move R = Dynamite.Move.ROCK;
        Dynamite.Move P = Dynamite.Move.PAPER;
        eq(made.get(0).seen.get(1), List.of(round(R, P)), "seat 0's own history");
        eq(made.get(1).seen.get(1), List.of(round(P, R)), "seat 1's own history");
        eq(made.get(1).outcome == null ? null : made.get(1).outcome.result(), Result.LOSS, "seat 1 ended");
        check(made.get(0).outcome == null, "seat 0 not ended");
        error(get(out, 7), "3", "BOT_ERROR_KIND_INVALID_ANSWER");
        action(get(out, 8), "3", "dynamite");
    }

    static void faultTests() {
        String start = "{\"start\":{\"matchId\":\"f\",\"game\":\"dynamite\"}}";
        String act = "{\"act\":{\"matchId\":\"f\",\"step\":\"%d\",\"deadlineMs\":\"1000\",\"dynamite\":{\"round\":%d}}}";
        List<String> in = List.of(start, String.format(act, 1, 1), String.format(act, 2, 2), String.format(act, 3, 3),
                String.format(act, 4, 4), String.format(act, 5, 5),
                "{\"act\":{\"matchId\":\"f\",\"step\":\"6\",\"finger\":{\"game\":1}}}",
                "{\"act\":{\"matchId\":\"f\",\"step\":\"7\",\"dynamite\":{\"round\":\"seven\"}}}",
                "{\"act\":{\"matchId\":\"f\",\"step\":\"8\"}}",
                "{\"end\":{\"matchId\":\"f\",\"result\":\"RESULT_DRAW\"}}");
        List<String> out = feed(Dynamite.play(() -> new Dynamite.Player() {
            @Override
            public Dynamite.Move move(Dynamite.State s) {
                switch (s.round()) {
                    case 2:
                        throw new IllegalStateException("boom\nsecond line");
                    case 3:
                        return null;
                    case 4:
                        return deep(0);
                    case 5:
                        throw new arena.InvalidAnswer("no idea");
                    default:
                        return Dynamite.Move.ROCK;
                }
            }

            @Override
            public void end(Outcome<Dynamite.State> o) {
                throw new RuntimeException("end hook fails");
            }

            Dynamite.Move deep(int n) {
                return deep(n + 1);
            }
        }), in);
        eq(get(out, 0), "{}", "start");
        action(get(out, 1), "1", "dynamite");
        Json.Obj e = error(get(out, 2), "2", "BOT_ERROR_KIND_EXCEPTION");
        eq(e.str("message"), "java.lang.IllegalStateException: boom second line", "exception message, one line");
        String tb = e.str("traceback");
        check(tb.startsWith("java.lang.IllegalStateException: boom"), "traceback header: " + tb);
        check(tb.contains("SelfTest$"), "traceback names the player's frame: " + tb);
        check(!tb.contains("arena.Arena"), "traceback without the kit's line loop: " + tb);
        check(lastStderr.contains("boom"), "the exception is logged on stderr");
        e = error(get(out, 3), "3", "BOT_ERROR_KIND_INVALID_ANSWER");
        check(e.str("message").contains("null"), "null move message: " + e.str("message"));
        e = error(get(out, 4), "4", "BOT_ERROR_KIND_EXCEPTION");
        check(e.str("message").contains("StackOverflowError"), "stack overflow: " + e.str("message"));
        check(e.str("traceback").length() < 20_000, "stack overflow traceback is bounded");
        e = error(get(out, 5), "5", "BOT_ERROR_KIND_INVALID_ANSWER");
        eq(e.str("message"), "no idea", "InvalidAnswer thrown by the player");
        e = error(get(out, 6), "6", "BOT_ERROR_KIND_INVALID_ANSWER");
        check(e.str("message").contains("expected a dynamite observation, got finger"), "wrong game: " + e.str("message"));
        error(get(out, 7), "7", "BOT_ERROR_KIND_EXCEPTION");
        e = error(get(out, 8), "8", "BOT_ERROR_KIND_INVALID_ANSWER");
        check(e.str("message").contains("got none"), "no observation: " + e.str("message"));
        eq(get(out, 9), "{}", "an end hook that throws still answers {}");

        // A player whose constructor or start hook throws: the seat is refused with the trace.
        List<String> o2 = feed(Dynamite.play(() -> new Dynamite.Player() {
            @Override
            public void start(Dynamite.Setup s) {
                throw new UnsupportedOperationException("cannot start");
            }

            @Override
            public Dynamite.Move move(Dynamite.State s) {
                return Dynamite.Move.ROCK;
            }
        }), List.of(start, String.format(act, 1, 1)));
        String err = obj(get(o2, 0)).str("error");
        check(err.startsWith("java.lang.UnsupportedOperationException: cannot start"), "start refusal: " + err);
        check(err.contains("\tat "), "start refusal carries the trace");
        error(get(o2, 1), "1", "BOT_ERROR_KIND_INVALID_ANSWER");
        List<String> o3 = feed(Dynamite.play(() -> null), List.of(start));
        check(obj(get(o3, 0)).str("error").contains("supplier returned null"), "null player refused");
    }

    // ---- finger --------------------------------------------------------------------------

    static void fingerTests() throws IOException {
        List<String> in = lines("finger.jsonl");
        List<List<Finger.HistoryEntry>> seen = new ArrayList<>();
        List<List<Finger.Move>> legal = new ArrayList<>();
        List<Finger.State> states = new ArrayList<>();
        Map<Integer, Finger.Move> script = Map.of(2, Finger.Hit.RIGHT_TO_RIGHT, 4, Finger.Hit.LEFT_TO_RIGHT,
                6, new Finger.Switch(1, 1), 9, new Finger.Switch(0, 2), 11, Finger.Hit.LEFT_TO_LEFT);
        int[] step = {0};
        List<String> withSteps = new ArrayList<>();
        Finger.Setup[] setup = new Finger.Setup[1];
        List<String> out = feed(Finger.play(() -> new Finger.Player() {
            @Override
            public void start(Finger.Setup s) {
                setup[0] = s;
            }

            @Override
            public Finger.Move move(Finger.State s) {
                seen.add(List.copyOf(s.history()));
                legal.add(s.legalMoves());
                states.add(s);
                int n = new int[] {2, 4, 6, 9, 11}[step[0]++];
                return script.get(n);
            }
        }), in);
        eq(setup[0] == null ? null : setup[0].ownName(), "righty", "setup own name");
        eq(setup[0] == null ? null : setup[0].seat(), 1, "setup seat");
        eq(get(out, 2), "{\"step\":\"2\",\"finger\":{\"move\":\"FINGER_MOVE_RIGHT_TO_RIGHT\"}}", "answer-2 byte for byte");
        eq(get(out, 3), "{\"step\":\"4\",\"finger\":{\"move\":\"FINGER_MOVE_LEFT_TO_RIGHT\"}}", "answer-4 byte for byte");
        Json.Obj a = action(get(out, 4), "6", "finger");
        eq(a.str("move"), "FINGER_MOVE_SWITCH", "switch");
        eq(a.i32("switchLeft"), 1, "switch left");
        eq(a.i32("switchRight"), 1, "switch right");
        eq(get(out, 5), "{\"step\":\"9\",\"finger\":{\"move\":\"FINGER_MOVE_SWITCH\",\"switchRight\":2}}",
                "a switch to 0 leaves the field out");
        action(get(out, 6), "11", "finger");
        eq(get(out, 7), "{}", "end");
        Finger.HistoryEntry l1 = new Finger.HistoryEntry("lefty", Finger.Hit.LEFT_TO_RIGHT, false);
        Finger.HistoryEntry r1 = new Finger.HistoryEntry("righty", Finger.Hit.RIGHT_TO_RIGHT, true);
        Finger.HistoryEntry l2 = new Finger.HistoryEntry("lefty", Finger.Hit.RIGHT_TO_RIGHT, false);
        Finger.HistoryEntry r2 = new Finger.HistoryEntry("righty", Finger.Hit.LEFT_TO_RIGHT, true);
        Finger.HistoryEntry l3 = new Finger.HistoryEntry("lefty", Finger.Hit.LEFT_TO_LEFT, false);
        eq(seen.size(), 5, "move per act");
        if (seen.size() == 5) {
            eq(seen.get(0), List.of(l1), "history at step 2");
            eq(seen.get(1), List.of(l1, r1, l2), "history at step 4");
            eq(seen.get(2), List.of(l1, r1, l2, r2, l3), "history at step 6");
            eq(seen.get(3), List.of(), "new game clears the history");
            eq(seen.get(4), List.of(new Finger.HistoryEntry("righty", Finger.Hit.LEFT_TO_LEFT, true),
                    new Finger.HistoryEntry("lefty", new Finger.Switch(3, 0), false)), "history of game 2, switch read");
            eq(legal.get(1), List.of(Finger.Hit.LEFT_TO_LEFT, Finger.Hit.LEFT_TO_RIGHT), "legal moves at step 4");
            eq(legal.get(2), List.of(Finger.Hit.LEFT_TO_LEFT, Finger.Hit.LEFT_TO_RIGHT, new Finger.Switch(1, 1)),
                    "legal moves at step 6 (own 2 0)");
            Finger.State s = states.get(4);
            eq(s.game(), 2, "game");
            eq(s.started(), true, "started");
            eq(s.gamesLost(), 1, "games lost");
            eq(s.opponentRight(), 0, "absent hand is 0");
        }
        // A null move and a move of no known kind are invalid answers.
        List<String> o2 = feed(Finger.play(() -> st -> null), List.of(in.get(1), in.get(2)));
        error(get(o2, 1), "2", "BOT_ERROR_KIND_INVALID_ANSWER");
    }

    // ---- bidding -------------------------------------------------------------------------

    static void biddingTests() throws IOException {
        List<String> in = lines("bidding.jsonl");
        List<List<Integer>> own = new ArrayList<>();
        List<List<Integer>> opp = new ArrayList<>();
        List<Bidding.Side> sides = new ArrayList<>();
        List<Integer> toWin = new ArrayList<>();
        long[] bids = {12, 12, 12, 100, 0};
        int[] i = {0};
        Outcome<?>[] end = new Outcome<?>[1];
        List<String> out = feed(Bidding.play(() -> new Bidding.Player() {
            @Override
            public long bid(Bidding.State s) {
                own.add(List.copyOf(s.ownBids()));
                opp.add(List.copyOf(s.opponentBids()));
                sides.add(s.side());
                toWin.add(s.placesToWin());
                return bids[i[0]++];
            }

            @Override
            public void end(Outcome<Bidding.State> o) {
                end[0] = o;
            }
        }), in);
        eq(get(out, 4), "{\"step\":\"3\",\"bidding\":{\"bid\":\"12\"}}", "answer-3 byte for byte");
        eq(action(get(out, 2), "1", "bidding").i64("bid"), 12L, "bid as an int64 string");
        eq(action(get(out, 5), "11", "bidding").i64("bid"), 100L, "bid 100");
        eq(get(out, 6), "{\"step\":\"12\",\"bidding\":{}}", "bid 0 leaves the field out");
        eq(get(out, 7), "{}", "end");
        if (own.size() == 5) {
            eq(own.get(0), List.of(), "no bids in round 1");
            eq(own.get(1), List.of(12), "own bids round 2");
            eq(opp.get(1), List.of(10), "opponent bids round 2");
            eq(own.get(2), List.of(12, 12), "own bids round 3");
            eq(opp.get(2), List.of(10, 12), "opponent bids round 3");
            eq(own.get(3), List.of(), "new game clears the bids");
            eq(own.get(4), List.of(100), "own bids game 2");
            eq(opp.get(4), List.of(10), "opponent bids game 2");
            eq(sides, List.of(Bidding.Side.A, Bidding.Side.A, Bidding.Side.A, Bidding.Side.B, Bidding.Side.B), "sides");
            eq(toWin.get(2), 3, "places to win as A at 7");
            eq(toWin.get(4), 4, "places to win as B at 4");
        } else {
            check(false, "bid called 5 times, got " + own.size());
        }
        eq(end[0] == null ? null : end[0].result(), Result.LOSS, "end result");
        eq(end[0] == null ? null : end[0].score(), 0.0, "absent score is 0");
    }

    // ---- auction -------------------------------------------------------------------------

    static void auctionTests() throws IOException {
        List<String> in = lines("auction.jsonl");
        List<Auction.State> states = new ArrayList<>();
        List<Integer> roundsSeen = new ArrayList<>();
        double[] bids = {7, 7, 2.5};
        Auction.State[] last = new Auction.State[1];
        Outcome<?>[] end = new Outcome<?>[1];
        List<String> out = feed(Auction.play(() -> new Auction.Player() {
            @Override
            public double bid(Auction.State s) {
                states.add(s);
                roundsSeen.add(s.rounds().size());
                return bids[roundsSeen.size() - 1];
            }

            @Override
            public void end(Outcome<Auction.State> o) {
                end[0] = o;
                last[0] = o.state();
            }
        }), in);
        eq(get(out, 3), "{\"step\":\"2\",\"auction\":{\"bid\":7}}", "answer-2 byte for byte");
        eq(action(get(out, 4), "3", "auction").dbl("bid"), 2.5, "fractional bid sent as is");
        eq(get(out, 5), "{}", "end");
        eq(roundsSeen, List.of(0, 1, 2), "rounds rebuilt");
        Auction.State s = last[0];
        check(s != null, "end hook");
        if (s == null) {
            return;
        }
        eq(s.rounds(), List.of(new Auction.RoundResult(0, "t1", "bob", 20), new Auction.RoundResult(1, "t0", "ann", 7),
                new Auction.RoundResult(2, "t1", "bob", 20)), "every round, the end's included");
        eq(s.collections().get("bob"), Map.of("t1", 2), "bob's collection");
        eq(s.ownCollection(), Map.of("t0", 1), "own collection");
        eq(s.needs("bob", "t1"), 0, "bob needs nothing more");
        eq(s.needs("ann", "t2"), 2, "ann needs 2 of t2");
        eq(s.wealthTable(), Map.of("ann", 93L, "bob", 60L, "cy", 100L), "wealth table from int64 strings");
        eq(s.remainTime().get("ann"), 120.0, "remain time");
        eq(s.finished(), true, "finished");
        eq(s.gameWinner(), "bob", "game winner");
        eq(s.ownMoney(), 93L, "own money");
        eq(s.item(), "", "no item once finished");
        eq(end[0].result(), Result.LOSS, "result");
        eq(s.setup().auctionItems().size(), 12, "item list");
        eq(s.setup().requiredCount(), 2, "required count");
        eq(s.setup().clockMs(), 120000L, "clock from int64 string");
        // Non-finite bids are sent as protojson strings.
        List<String> o2 = feed(Auction.play(() -> st -> st.itemIndex() == 0 ? Double.NaN : Double.POSITIVE_INFINITY),
                in.subList(1, 4));
        eq(get(o2, 1), "{\"step\":\"1\",\"auction\":{\"bid\":\"NaN\"}}", "NaN bid");
        eq(get(o2, 2), "{\"step\":\"2\",\"auction\":{\"bid\":\"Infinity\"}}", "infinite bid");
        // A large start (100k items) is read on one line.
        StringBuilder big = new StringBuilder("{\"start\":{\"matchId\":\"big\",\"game\":\"auction\",\"auction\":{\"artistsNum\":3,"
                + "\"requiredCount\":5,\"playerNames\":[\"a\",\"b\"],\"ownName\":\"a\",\"startMoney\":100,\"auctionItems\":[");
        for (int k = 0; k < 100_000; k++) {
            big.append(k == 0 ? "" : ",").append("\"t").append(k % 3).append('"');
        }
        big.append("]}}}");
        int[] items = {0};
        List<String> o3 = feed(Auction.play(() -> new Auction.Player() {
            @Override
            public void start(Auction.Setup setup) {
                items[0] = setup.auctionItems().size();
            }

            @Override
            public double bid(Auction.State st) {
                return 1;
            }
        }), List.of(big.toString()));
        eq(get(o3, 0), "{}", "big start accepted");
        eq(items[0], 100_000, "big item list");
    }

    // ---- realtv --------------------------------------------------------------------------

    static void realtvTests() throws IOException {
        List<String> in = lines("realtv.jsonl");
        List<String> calls = new ArrayList<>();
        Realtv.Setup[] setup = new Realtv.Setup[1];
        Outcome<?>[] end = new Outcome<?>[1];
        List<String> out = feed(new Arena.Info("Weakling", "", ""), List.of(Realtv.play(() -> new Realtv.Player() {
            @Override
            public void start(Realtv.Setup s) {
                setup[0] = s;
            }

            @Override
            public String voteForElimination(Realtv.Context c) {
                calls.add("elimination");
                realtvSeen(c);
                return Realtv.weakest(c.others(c.activePlayers())).map(Realtv.PlayerContext::id).orElse(null);
            }

            @Override
            public String voteForTie(Realtv.Context c) {
                calls.add("tie");
                return Realtv.weakest(c.others(c.currentTies())).map(Realtv.PlayerContext::id).orElse(null);
            }

            @Override
            public void end(Outcome<Realtv.Context> o) {
                end[0] = o;
            }
        })), in);
        eq(obj(get(out, 0)).str("name"), "Weakling", "describe name");
        eq(obj(get(out, 0)).has("author"), false, "empty author left out");
        eq(get(out, 1), "{}", "start");
        eq(get(out, 2), "{\"step\":\"2\",\"realtv\":{\"voteId\":\"5WAK85AXOM\"}}", "answer-2 byte for byte");
        eq(action(get(out, 3), "3", "realtv").str("voteId"), "RMYO1UML00", "tie vote");
        eq(get(out, 4), "{}", "end");
        eq(calls, List.of("elimination", "tie"), "the decision picks the vote");
        eq(setup[0] == null ? null : setup[0].id(), "6YO7JTF9TS", "setup id");
        eq(setup[0] == null ? null : setup[0].strength(), 10, "setup strength");
        eq(end[0] == null ? null : end[0].score(), 118.0, "end score");
        // A vote with characters JSON must escape comes back intact.
        String odd = "a\"b\\c\u00e9\ud83d\ude00";
        List<String> o2 = feed(Realtv.play(() -> new Realtv.Player() {
            @Override
            public String voteForElimination(Realtv.Context c) {
                return odd;
            }

            @Override
            public String voteForTie(Realtv.Context c) {
                return "";
            }
        }), in.subList(1, 4));
        eq(action(get(o2, 1), "2", "realtv").str("voteId"), odd, "escaped vote id");
        eq(get(o2, 2), "{\"step\":\"3\",\"realtv\":{}}", "no vote leaves the field out");
    }

    /** Checks the context of the elimination vote of act-2, while the vote is asked. */
    static void realtvSeen(Realtv.Context c) {
        eq(c.activePlayers().size(), 6, "active players");
        eq(c.betrayers().size(), 6, "betrayers");
        eq(new ArrayList<>(c.activePlayers().keySet()), List.of("05RT4VQLKK", "5WAK85AXOM", "6YO7JTF9TS",
                "E6Z43HF399", "R0I6JWNY4G", "RMYO1UML00"), "players sorted by id");
        Realtv.PlayerContext w = c.betrayers().get("WIZFAZZAR7");
        eq(w == null ? null : w.strength(), 0, "absent strength is 0");
        eq(w == null ? null : w.previousMoves(), List.of(new Realtv.Votes("WIZFAZZAR7", "")), "previous moves");
        eq(c.me().map(Realtv.PlayerContext::score).orElse(-1.0), 3.0, "me");
        eq(c.day(), 2, "day");
        eq(c.game().totalHumans(), 11, "game context");
        eq(c.decision(), Realtv.Decision.ELIMINATION, "decision");
    }

    // ---- protocol ------------------------------------------------------------------------

    static void protocolTests() throws IOException {
        List<Game> all = List.of(Dynamite.play(Cycler::new), Finger.play(() -> s -> s.legalMoves().get(0)),
                Bidding.play(() -> s -> s.minBid()), Auction.play(() -> s -> 0), Realtv.play(() -> new Realtv.Player() {
                    @Override
                    public String voteForElimination(Realtv.Context c) {
                        return null;
                    }

                    @Override
                    public String voteForTie(Realtv.Context c) {
                        return null;
                    }
                }));
        List<String> out = feed(new Arena.Info("all \"five\"", "me", "1.2"), all, List.of("{\"describe\":{}}"));
        eq(get(out, 0), "{\"name\":\"all \\\"five\\\"\",\"author\":\"me\",\"version\":\"1.2\","
                + "\"games\":[\"auction\",\"bidding\",\"dynamite\",\"finger\",\"realtv\"],\"sdk\":\"java/0.1.0\"}",
                "describe of a bot with every game");

        List<String> in = lines("malformed.jsonl");
        out = feed(Dynamite.play(Cycler::new), in);
        eq(obj(get(out, 0)).str("sdk"), "java/0.1.0", "describe with unknown fields and an unknown sibling");
        String e = obj(get(out, 1)).str("error");
        check(e.contains("does not play chess (it plays dynamite;"), "unknown game refused: " + e);
        e = obj(get(out, 2)).str("error");
        check(e.contains("does not play finger (it plays dynamite;"), "game not played refused: " + e);
        Json.Obj err = error(get(out, 3), "77", "BOT_ERROR_KIND_INVALID_ANSWER");
        check(err.str("message").contains("no open seat 0 in match 'm-bad'"), "act for no seat: " + err.str("message"));
        err = error(get(out, 4), "78", "BOT_ERROR_KIND_EXCEPTION");
        check(err.str("message").contains("not a JSON object"), "cut line: " + err.str("message"));
        eq(get(out, 5), "{}", "not JSON at all");
        eq(get(out, 6), "{}", "an array");
        eq(get(out, 7), "{}", "an unknown call");
        eq(get(out, 8), "{}", "end of a seat that never opened");

        // protojson as Go writes it may put spaces between tokens, in any key order.
        out = feed(Dynamite.play(Cycler::new), List.of(
                "{ \"start\" : { \"dynamite\" : { } , \"game\" : \"dynamite\" , \"matchId\" : \"s\" } }",
                "{\"act\":  {\"dynamite\": {\"round\": 2, \"lastOwn\": \"DYNAMITE_MOVE_ROCK\"},  \"step\": \"5\", \"matchId\": \"s\"}}"));
        eq(get(out, 0), "{}", "spaced start");
        eq(get(out, 1), "{\"step\":\"5\",\"dynamite\":{\"move\":\"DYNAMITE_MOVE_PAPER\"}}", "spaced act, keys in another order");

        // A setup of another game is refused; a blank line is not a request.
        out = feed(Dynamite.play(Cycler::new), List.of("{\"start\":{\"game\":\"dynamite\",\"finger\":{}}}"));
        check(obj(get(out, 0)).str("error").contains("opened with a finger setup"), "setup of another game: " + get(out, 0));
        StringWriter w = new StringWriter();
        PrintStream errStream = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true));
        try {
            Arena.run(new Arena.Info("t", "", ""), List.of(Dynamite.play(Cycler::new)),
                    new BufferedReader(new StringReader("\n  \n{\"describe\":{}}\r\n")), w);
        } finally {
            System.setErr(errStream);
        }
        eq(w.toString().split("\n", -1).length, 2, "blank lines get no answer, a CRLF line does: " + w);
    }

    // ---- any game, as JSON ----------------------------------------------------------------

    /** Calls heads in odd rounds and tails in even ones, and keeps what it saw. */
    static final class Coin implements Any.Player {
        Any.Setup setup;
        final List<String> seen = new ArrayList<>();
        Outcome<Any.State> outcome;

        @Override
        public void start(Any.Setup s) {
            setup = s;
        }

        @Override
        public Object act(Any.State s) {
            seen.add(s.step() + " " + s.observation() + " " + s.budget().toMillis() + "ms");
            int round = s.observation().i32("round");
            if (round == 0) {
                return "HEADS"; // not an object: an invalid answer
            }
            if (round == 9) {
                return Map.of("call", new Object()); // not JSON
            }
            return Json.object("call", round % 2 == 1 ? "COIN_CALL_HEADS" : "COIN_CALL_TAILS");
        }

        @Override
        public void end(Outcome<Any.State> o) {
            outcome = o;
        }
    }

    /** "coin" is no game of this kit: the generic path plays it from the wire messages alone. */
    static void anyTests() throws IOException {
        List<String> in = lines("coin.jsonl");
        Coin[] made = new Coin[1];
        List<String> out = feed(Any.play("coin", () -> made[0] = new Coin()), in);
        eq(obj(get(out, 0)).strings("games"), List.of("coin"), "describe games");
        eq(get(out, 1), "{}", "start accepted");
        eq(get(out, 2), "{\"step\":\"1\",\"coin\":{\"call\":\"COIN_CALL_HEADS\"}}", "first answer, byte for byte");
        eq(action(get(out, 3), "2", "coin").str("call"), "COIN_CALL_TAILS", "second call");
        eq(action(get(out, 4), "3", "coin").str("call"), "COIN_CALL_HEADS", "third call");
        eq(get(out, 5), "{}", "end answered {}");
        Coin c = made[0];
        check(c != null && c.setup != null, "start hook called");
        if (c == null || c.setup == null) {
            return;
        }
        eq(c.setup.game(), "coin", "setup game");
        eq(c.setup.setup().i32("rounds"), 3, "setup message");
        eq(c.setup.matchId() + " " + c.setup.seat() + " " + c.setup.players() + " " + c.setup.deadlineMs(),
                "m-coin 1 [heads, tails] 1000", "seat facts");
        eq(c.seen, List.of("1 {\"round\":1} 1000ms", "2 {\"round\":2,\"lastOpponent\":\"COIN_CALL_TAILS\"} 1000ms",
                "3 {\"round\":3,\"lastOpponent\":\"COIN_CALL_HEADS\"} 1000ms"), "step, observation and clock of each move");
        check(c.outcome != null, "end hook called");
        if (c.outcome != null) {
            eq(c.outcome.result() + " " + c.outcome.score(), "WIN 2.0", "end result and score");
            eq(c.outcome.state().observation().i32("ownScore"), 2, "final observation");
        }

        // An answer that is not an object or not JSON, another game's observation, and a game the
        // bot does not name are errors, not crashes.
        out = feed(Any.play("coin", Coin::new), List.of(
                "{\"start\":{\"matchId\":\"m\",\"game\":\"coin\",\"coin\":{}}}",
                "{\"act\":{\"matchId\":\"m\",\"step\":\"4\",\"coin\":{}}}",
                "{\"act\":{\"matchId\":\"m\",\"step\":\"5\",\"coin\":{\"round\":9}}}",
                "{\"act\":{\"matchId\":\"m\",\"step\":\"6\",\"dice\":{\"round\":1}}}",
                "{\"start\":{\"matchId\":\"n\",\"game\":\"dice\",\"dice\":{}}}"));
        eq(get(out, 0), "{}", "start");
        String m = error(get(out, 1), "4", "BOT_ERROR_KIND_INVALID_ANSWER").str("message");
        check(m.contains("the coin action must be a JSON object (Json.Obj or Map), not HEADS (java.lang.String)"), m);
        m = error(get(out, 2), "5", "BOT_ERROR_KIND_INVALID_ANSWER").str("message");
        check(m.contains("the coin action is not JSON: cannot write a java.lang.Object as JSON"), m);
        m = error(get(out, 3), "6", "BOT_ERROR_KIND_INVALID_ANSWER").str("message");
        check(m.contains("expected a coin observation, got dice"), m);
        String e = obj(get(out, 4)).str("error");
        check(e.contains("does not play dice (it plays coin;"), "a game not named refused: " + e);
    }

    // ---- the example bots, as processes ---------------------------------------------------

    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    /** Compiles a bot folder as the arena's recipe does; returns its classes folder or null. */
    static Path compile(Path folder, String name) throws IOException {
        Path classes = scratch.resolve(name).resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        check(javac != null, "a JDK compiler");
        if (javac == null) {
            return null;
        }
        // As the recipe (arena/build): every .java file of the folder, the kit from its sources
        // only (an explicit classpath keeps this JVM's own copy of the kit classes out).
        List<String> args = new ArrayList<>(List.of("-encoding", "UTF-8", "-d", classes.toString(), "-classpath",
                classes.toString(), "-sourcepath", root.resolve("sdk/java").toString(), "-Xlint:all", "-Werror"));
        try (var files = Files.walk(folder)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        ByteArrayOutputStream msgs = new ByteArrayOutputStream();
        int rc = javac.run(null, msgs, msgs, args.toArray(new String[0]));
        check(rc == 0, "javac " + folder + " failed:\n" + msgs);
        return rc == 0 ? classes : null;
    }

    record Proc(int exit, List<String> out, String err) {}

    static Proc runBot(Path classes, List<String> in) throws Exception {
        Path input = classes.getParent().resolve("stdin.jsonl");
        Path errFile = classes.getParent().resolve("stderr.txt");
        Files.write(input, in, StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(JAVA, "-cp", classes.toString(), "Bot");
        pb.environment().put("ARENA_STDIO", "1");
        pb.redirectInput(input.toFile());
        pb.redirectError(errFile.toFile());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            check(false, "the bot did not exit at the end of stdin");
            return new Proc(-1, List.of(), "");
        }
        String s = new String(out, StandardCharsets.UTF_8);
        check(s.isEmpty() || s.endsWith("\n"), "stdout ends with a newline");
        List<String> lines = s.isEmpty() ? List.of() : List.of(s.substring(0, s.length() - 1).split("\n", -1));
        return new Proc(p.exitValue(), lines, Files.readString(errFile));
    }

    static void exampleTest(String game) throws Exception {
        Path classes = compile(root.resolve("examples/java").resolve(game), "example-" + game);
        if (classes == null) {
            return;
        }
        try (var files = Files.list(root.resolve("examples/java").resolve(game))) {
            eq(files.map(p -> p.getFileName().toString()).sorted().toList(), List.of("Bot.java", "README.md"),
                    "the example folder holds Bot.java and its README");
        }
        List<String> in = new ArrayList<>(lines(game + ".jsonl"));
        in.add("{\"start\":{\"matchId\":\"m-x\",\"game\":\"chess\"}}");
        in.add("hello");
        in.add("{\"act\":{\"matchId\":\"m-x\",\"step\":\"99\",\"future\":1}}");
        Proc p = runBot(classes, in);
        eq(p.exit(), 0, "exit code at the end of stdin (stderr: " + p.err() + ")");
        eq(p.out().size(), in.size(), "one answer line per request");
        List<Json.Obj> acts = new ArrayList<>();
        for (int i = 0; i < Math.min(in.size(), p.out().size()); i++) {
            Json.Obj req = obj(in.get(i).equals("hello") ? "{\"hello\":{}}" : in.get(i));
            String ans = p.out().get(i);
            Json.Obj a;
            try {
                a = obj(ans);
            } catch (RuntimeException e) {
                check(false, "answer " + i + " is not JSON: " + ans);
                continue;
            }
            if (req.has("describe")) {
                check(!a.str("name").isEmpty(), "describe has a name");
                check(!a.str("name").contains("\n"), "one-line name");
                eq(a.strings("games"), List.of(game), "describe games");
                eq(a.str("sdk"), "java/0.1.0", "describe sdk");
            } else if (req.has("start")) {
                if (req.obj("start").str("game").equals(game)) {
                    eq(ans, "{}", "start accepted");
                } else {
                    check(a.str("error").contains("does not play chess"), "other game refused: " + ans);
                }
            } else if (req.has("end")) {
                eq(ans, "{}", "end");
            } else if (req.has("act") && req.obj("act").has(game)) {
                Json.Obj r = req.obj("act");
                Json.Obj act = action(ans, r.str("step"), game);
                legalAction(game, r.obj(game), act, ans);
                acts.add(act);
            } else if (req.has("act")) {
                error(ans, "99", "BOT_ERROR_KIND_INVALID_ANSWER");
            } else {
                eq(ans, "{}", "not JSON answered {}");
            }
        }
        strategy(game, acts);
    }

    static final List<String> DYN = List.of("DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_SCISSORS",
            "DYNAMITE_MOVE_DYNAMITE", "DYNAMITE_MOVE_WATER");

    /** Checks that an answer is a legal move for the observation it answered. */
    static void legalAction(String game, Json.Obj o, Json.Obj a, String ans) {
        switch (game) {
            case "dynamite" -> check(DYN.contains(a.str("move")), "a throw: " + ans);
            case "finger" -> {
                int[] own = {o.i32("ownLeft"), o.i32("ownRight")};
                int[] opp = {o.i32("opponentLeft"), o.i32("opponentRight")};
                String m = a.str("move");
                boolean ok = switch (m) {
                    case "FINGER_MOVE_LEFT_TO_LEFT" -> own[0] > 0 && opp[0] > 0;
                    case "FINGER_MOVE_LEFT_TO_RIGHT" -> own[0] > 0 && opp[1] > 0;
                    case "FINGER_MOVE_RIGHT_TO_LEFT" -> own[1] > 0 && opp[0] > 0;
                    case "FINGER_MOVE_RIGHT_TO_RIGHT" -> own[1] > 0 && opp[1] > 0;
                    case "FINGER_MOVE_SWITCH" -> {
                        int l = a.i32("switchLeft");
                        int r = a.i32("switchRight");
                        yield l >= 0 && r >= 0 && l <= 5 && r <= 5 && l + r == own[0] + own[1]
                                && !(l == own[0] && r == own[1]) && !(l == own[1] && r == own[0]);
                    }
                    default -> false;
                };
                check(ok, "a legal finger move for " + o.fields() + ": " + ans);
            }
            case "bidding" -> {
                long bid = a.i64("bid");
                int money = o.i32("ownMoney");
                check(money == 0 ? bid == 0 : bid >= 1 && bid <= money, "a legal bid with " + money + ": " + ans);
            }
            case "auction" -> {
                double bid = a.dbl("bid");
                check(bid >= 0 && bid == Math.rint(bid) && bid <= o.i64("ownMoney"), "a whole bid within the money: " + ans);
            }
            case "realtv" -> {
                String v = a.str("voteId");
                boolean tie = o.str("decision").equals("REALTV_DECISION_TIE");
                Map<String, Object> pool = o.map(tie ? "currentTies" : "activePlayers");
                check(pool.containsKey(v), "a vote for a player in the pool: " + ans);
                check(!v.equals(o.str("ownId")), "not a vote for itself: " + ans);
            }
            default -> check(false, "unknown game " + game);
        }
    }

    /** A few answers the example strategies must give on the transcripts. */
    static void strategy(String game, List<Json.Obj> acts) {
        List<String> got = new ArrayList<>();
        for (Json.Obj a : acts) {
            got.add(switch (game) {
                case "dynamite", "finger" -> a.str("move");
                case "bidding" -> String.valueOf(a.i64("bid"));
                case "auction" -> String.valueOf((long) a.dbl("bid"));
                default -> a.str("voteId");
            });
        }
        switch (game) {
            // Rock first; dynamite on the raised stake of round 2; then beat the favourite (rock).
            case "dynamite" -> eq(got, List.of("DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_DYNAMITE", "DYNAMITE_MOVE_PAPER",
                    "DYNAMITE_MOVE_PAPER", "DYNAMITE_MOVE_PAPER"), "frequency's throws");
            // No knock-out and nothing safer at steps 2 and 4: the first safe hit. Step 6 (own 2 0,
            // theirs 1 4): left on their right knocks it out. Steps 9 and 11: the first hit.
            case "finger" -> eq(got, List.of("FINGER_MOVE_LEFT_TO_LEFT", "FINGER_MOVE_LEFT_TO_LEFT",
                    "FINGER_MOVE_LEFT_TO_RIGHT", "FINGER_MOVE_LEFT_TO_LEFT", "FINGER_MOVE_LEFT_TO_LEFT"), "finisher's moves");
            // 100 over 5 places = 20; 88 over 4 = 22; 76 over 3 = 25; as B at 5: 100 / 5 = 20; no money: 0.
            case "bidding" -> eq(got, List.of("20", "22", "25", "20", "0"), "spreader's bids");
            // Target t1 (two works by item 2): half the money on item 0, nothing on t0, 93 / 2 on item 2.
            case "auction" -> eq(got, List.of("50", "0", "46"), "collector's bids");
            case "realtv" -> eq(got, List.of("5WAK85AXOM", "RMYO1UML00"), "loyal's votes");
            default -> check(false, "unknown game");
        }
    }

    /** A bot that prints on System.out, throws, and leaves a thread running: the protocol holds. */
    static void noisyTest() throws Exception {
        Path classes = compile(root.resolve("sdk/java/test/noisy"), "noisy");
        if (classes == null) {
            return;
        }
        List<String> in = lines("dynamite.jsonl");
        long t0 = System.nanoTime();
        Proc p = runBot(classes, in);
        double secs = (System.nanoTime() - t0) / 1e9;
        eq(p.exit(), 0, "exit 0 at the end of stdin despite a running thread");
        check(secs < slack(10), "exited promptly: " + secs + " s");
        eq(p.out().size(), in.size(), "printing does not add stdout lines: " + p.out());
        for (String l : p.out()) {
            check(!l.contains("noise"), "no user printing on stdout: " + l);
        }
        check(p.err().contains("noise from start") && p.err().contains("noise from move"), "user printing in the log");
        Json.Obj e = error(get(p.out(), 3), "2", "BOT_ERROR_KIND_EXCEPTION");
        check(e.str("traceback").contains("Bot$Noisy.move"), "traceback names Bot$Noisy.move: " + e.str("traceback"));
        action(get(p.out(), 4), "3", "dynamite");
        File f = scratch.toFile();
        check(f.isDirectory(), "scratch folder");
    }
}
