package arena;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stdio protocol of the arena (docs/protocol.md, section 11): one JSON request per line on
 * stdin, one JSON answer per line on stdout, flushed after every line.
 *
 * <pre>{@code
 * public class Bot {
 *     public static void main(String[] args) {
 *         Arena.serve("frequency", "me", Dynamite.play(Frequency::new));
 *     }
 * }
 * }</pre>
 *
 * <p>A game the kit has no class for is played through {@link Any}: the bot names the game and gets
 * the setup and each observation as {@link Json.Obj}, and answers a JSON action, as a raw JSON-lines
 * program would ({@code Any.play("coin", Heads::new)}). The kit keeps no list of games: a seat of
 * game {@code g} reads the {@code g} member of each request.
 *
 * <p>{@link #serve} keeps the real stdout for the protocol and points {@code System.out} at
 * stderr, so a bot's ordinary printing lands in its log. It returns only by exiting the JVM: 0 at
 * the end of stdin.
 */
public final class Arena {
    /** What {@code Describe} answers in {@code sdk}. */
    public static final String SDK = "java/0.1.0";

    /** What the bot says about itself in {@code Describe}. */
    public record Info(String name, String author, String version) {
        public Info {
            name = name == null ? "" : name;
            author = author == null ? "" : author;
            version = version == null ? "" : version;
        }
    }

    /** Serves the games on stdin/stdout until the end of stdin, then exits the JVM with 0. */
    public static void serve(String name, String author, Game... games) {
        serve(new Info(name, author, ""), games);
    }

    /** Serves the games on stdin/stdout until the end of stdin, then exits the JVM with 0. */
    public static void serve(Info info, Game... games) {
        // The real stdout is the protocol's; everything else printed goes to the log (stderr).
        Writer out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                StandardCharsets.UTF_8), 1 << 16);
        System.setOut(System.err);
        if (System.getenv("ARENA_STDIO") == null && System.console() != null) {
            System.err.print(HELP);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(FileDescriptor.in),
                StandardCharsets.UTF_8), 1 << 16);
        boolean ok = run(info, List.of(games), in, out);
        System.err.flush();
        System.exit(ok ? 0 : 1);
    }

    private static final String HELP = "This is an arena bot: it reads one JSON request per line on stdin and\n"
            + "answers one line each on stdout (docs/protocol.md, section 11). Play it with\n\n"
            + "    bin/arena play <game> <this bot's folder> <house bot>\n\n"
            + "or try a line by hand: printf '%s\\n' '{\"describe\":{}}' | java -cp classes Bot\n"
            + "[ARENA_STDIO is not set: this process was not started by the arena]\n";

    /**
     * The line loop on any reader and writer, for tests: answers every request line until the end
     * of input. Returns false when writing an answer failed.
     */
    public static boolean run(Info info, List<Game> games, BufferedReader in, Writer out) {
        Arena a = new Arena(info, games);
        while (true) {
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                log("arena kit: reading stdin failed: " + e + "\n");
                return true;
            }
            if (line == null) {
                return true;
            }
            long now = System.nanoTime();
            a.lineNo++;
            if (line.isBlank()) {
                log("arena kit: ignored blank line " + a.lineNo + " on stdin\n");
                continue;
            }
            String answer = a.handle(line, now);
            try {
                out.write(answer);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                log("arena kit: writing stdout failed: " + e + "\n");
                return false;
            }
        }
    }

    private final Info info;
    private final Map<String, Game> games = new LinkedHashMap<>();
    private final Map<String, Game.Seat> seats = new HashMap<>();
    private final Map<Game.Seat, String> seatGame = new HashMap<>();
    private long lineNo;

    private Arena(Info info, List<Game> list) {
        this.info = info;
        for (Game g : list) {
            if (games.put(g.name(), g) != null) {
                throw new IllegalArgumentException("the game " + g.name() + " is given twice");
            }
        }
    }

    private static String key(String matchId, int seat) {
        return matchId + '\u0000' + seat;
    }

    String handle(String line, long now) {
        Json.Obj root;
        try {
            root = Json.parseObject(line);
        } catch (Json.SyntaxError e) {
            return malformed(line, e.getMessage());
        }
        for (Map.Entry<String, Object> f : root.fields().entrySet()) {
            if (!(f.getValue() instanceof Json.Obj) && f.getValue() != null) {
                continue;
            }
            Json.Obj body = Game.orEmpty((Json.Obj) f.getValue());
            switch (f.getKey()) {
                case "describe":
                    return describe();
                case "start":
                    return start(body);
                case "act":
                    return act(body, now);
                case "end":
                    return end(body);
                default:
                    break;
            }
        }
        log("arena kit: line " + lineNo + " names no call this kit knows; answered {}\n");
        return "{}";
    }

    private static final Pattern CALL = Pattern.compile("^\\s*\\{\\s*\"(describe|start|act|end)\"");
    private static final Pattern STEP = Pattern.compile("\"step\"\\s*:\\s*\"?(-?\\d{1,19})");

    /** A line that is not JSON: answered by its look, so that the next answer stays in step. */
    private String malformed(String line, String why) {
        String reason = "arena kit: line " + lineNo + " is not a JSON object: " + why;
        log(reason + "\n");
        Matcher m = CALL.matcher(line);
        String call = m.find() ? m.group(1) : "";
        switch (call) {
            case "describe":
                return describe();
            case "start":
                return errorStart(reason);
            case "act": {
                Matcher s = STEP.matcher(line);
                long step = 0;
                if (s.find()) {
                    try {
                        step = Long.parseLong(s.group(1));
                    } catch (NumberFormatException e) {
                        step = 0;
                    }
                }
                return botError(step, "BOT_ERROR_KIND_EXCEPTION", reason, "");
            }
            default:
                return "{}";
        }
    }

    private String describe() {
        StringBuilder b = new StringBuilder(128).append('{');
        String sep = "";
        if (!info.name().isEmpty()) {
            Json.quote(b.append("\"name\":"), info.name());
            sep = ",";
        }
        if (!info.author().isEmpty()) {
            Json.quote(b.append(sep).append("\"author\":"), info.author());
            sep = ",";
        }
        if (!info.version().isEmpty()) {
            Json.quote(b.append(sep).append("\"version\":"), info.version());
            sep = ",";
        }
        if (!games.isEmpty()) {
            List<String> names = new ArrayList<>(games.keySet());
            names.sort(null);
            b.append(sep).append("\"games\":[");
            for (int i = 0; i < names.size(); i++) {
                Json.quote(i == 0 ? b : b.append(','), names.get(i));
            }
            b.append(']');
            sep = ",";
        }
        Json.quote(b.append(sep).append("\"sdk\":"), SDK);
        return b.append('}').toString();
    }

    private static String errorStart(String message) {
        return Json.quote(new StringBuilder(message.length() + 16).append("{\"error\":"), cut(message, 3000))
                .append('}').toString();
    }

    private String start(Json.Obj req) {
        String game;
        Game.Info seatInfo;
        try {
            game = req.str("game");
            seatInfo = Game.Info.of(req);
        } catch (RuntimeException e) {
            return errorStart("arena kit: cannot read the start request: " + e.getMessage());
        }
        Game g = games.get(game);
        if (g == null) {
            String msg = "bot '" + info.name() + "' does not play " + game + " (it plays "
                    + (games.isEmpty() ? "nothing" : String.join(", ", games.keySet()))
                    + "; a bot plays any game as JSON with Any.play)";
            log("arena kit: refused seat " + seatInfo.seat() + " of match " + seatInfo.matchId() + ": " + msg + "\n");
            return errorStart(msg);
        }
        String setupCase = otherCase(req, game);
        if (req.get(game) == null && setupCase != null) {
            return errorStart(game + " seat opened with a " + setupCase + " setup");
        }
        Game.Seat seat;
        try {
            seat = g.open(seatInfo, Game.orEmpty(req.obj(game)));
        } catch (Throwable t) {
            String tb = traceback(t);
            log("arena kit: opening " + game + " seat " + seatInfo.seat() + " of match " + seatInfo.matchId()
                    + " failed:\n" + tb);
            return errorStart(oneLine(t) + "\n" + tb);
        }
        String k = key(seatInfo.matchId(), seatInfo.seat());
        Game.Seat old = seats.put(k, seat);
        if (old != null) {
            seatGame.remove(old);
        }
        seatGame.put(seat, game);
        return "{}";
    }

    /**
     * The key of another game's message in o (the first object member not named game), or null, for
     * error messages: the requests' common fields are scalars and lists, so an object is a oneof case.
     */
    private static String otherCase(Json.Obj o, String game) {
        for (Map.Entry<String, Object> f : o.fields().entrySet()) {
            if (!f.getKey().equals(game) && f.getValue() instanceof Json.Obj) {
                return f.getKey();
            }
        }
        return null;
    }

    private String act(Json.Obj req, long now) {
        long step;
        String matchId;
        int seatNo;
        try {
            step = req.i64("step");
        } catch (RuntimeException e) {
            return botError(0, "BOT_ERROR_KIND_EXCEPTION", "arena kit: cannot read the step: " + e.getMessage(), "");
        }
        try {
            matchId = req.str("matchId");
            seatNo = req.i32("seat");
        } catch (RuntimeException e) {
            return botError(step, "BOT_ERROR_KIND_EXCEPTION", "arena kit: cannot read the act request: "
                    + e.getMessage(), "");
        }
        Game.Seat seat = seats.get(key(matchId, seatNo));
        if (seat == null) {
            return botError(step, "BOT_ERROR_KIND_INVALID_ANSWER", "no open seat " + seatNo + " in match '"
                    + matchId + "'", "");
        }
        String game = seatGame.get(seat);
        StringBuilder b = new StringBuilder(96).append('{');
        if (step != 0) {
            b.append("\"step\":\"").append(step).append("\",");
        }
        int mark = b.length();
        try {
            Json.Obj obs = req.obj(game);
            if (obs == null) {
                String other = otherCase(req, game);
                throw new InvalidAnswer("expected a " + game + " observation, got " + (other == null ? "none" : other));
            }
            seat.act(req, obs, now, b);
            if (b.length() == mark) {
                throw new InvalidAnswer("no action");
            }
            return b.append('}').toString();
        } catch (InvalidAnswer e) {
            log("arena kit: invalid answer in match " + matchId + " seat " + seatNo + " step " + step + ": "
                    + e.getMessage() + "\n");
            return botError(step, "BOT_ERROR_KIND_INVALID_ANSWER", String.valueOf(e.getMessage()), "");
        } catch (Json.TypeError e) {
            log("arena kit: cannot read the act request of match " + matchId + " seat " + seatNo + " step "
                    + step + ": " + e.getMessage() + "\n");
            return botError(step, "BOT_ERROR_KIND_EXCEPTION", "arena kit: cannot read the act request: "
                    + e.getMessage(), "");
        } catch (Throwable t) {
            String tb = traceback(t);
            log("arena kit: bot raised in match " + matchId + " seat " + seatNo + " step " + step + ":\n" + tb);
            return botError(step, "BOT_ERROR_KIND_EXCEPTION", oneLine(t), tb);
        }
    }

    private static String botError(long step, String kind, String message, String traceback) {
        StringBuilder b = new StringBuilder(128 + traceback.length()).append('{');
        if (step != 0) {
            b.append("\"step\":\"").append(step).append("\",");
        }
        b.append("\"error\":{\"kind\":\"").append(kind).append("\",\"message\":");
        Json.quote(b, cut(message.replace('\r', ' ').replace('\n', ' '), 1000));
        if (!traceback.isEmpty()) {
            Json.quote(b.append(",\"traceback\":"), cut(traceback, 16 << 10));
        }
        return b.append("}}").toString();
    }

    private String end(Json.Obj req) {
        String matchId;
        int seatNo;
        try {
            matchId = req.str("matchId");
            seatNo = req.i32("seat");
        } catch (RuntimeException e) {
            log("arena kit: cannot read the end request: " + e.getMessage() + "\n");
            return "{}";
        }
        Game.Seat seat = seats.remove(key(matchId, seatNo));
        if (seat == null) {
            return "{}";
        }
        String game = seatGame.remove(seat);
        try {
            int r = req.enumValue("result", Result.WIRE);
            seat.end(req.obj(game), Result.values()[r], req.dbl("score"));
        } catch (Throwable t) {
            log("arena kit: end of match " + matchId + " seat " + seatNo + " raised:\n" + traceback(t));
        }
        return "{}";
    }

    // ---- errors -----------------------------------------------------------------------------

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        String s = m == null ? t.getClass().getName() : t.getClass().getName() + ": " + m;
        return cut(s.replace('\r', ' ').replace('\n', ' '), 1000);
    }

    /** s with its head and tail kept within about n characters. */
    static String cut(String s, int n) {
        if (s.length() <= n) {
            return s;
        }
        int half = n / 2;
        return s.substring(0, half) + " [... " + (s.length() - n) + " characters cut by the kit ...] "
                + s.substring(s.length() - half);
    }

    private static final int MAX_FRAMES = 60;

    /**
     * The stack trace of t as Java prints it, without the kit's own frames at the bottom (the line
     * loop and the seat that called the player) and with at most MAX_FRAMES frames per exception.
     */
    static String traceback(Throwable t) {
        StringBuilder b = new StringBuilder(1024);
        Throwable cur = t;
        String prefix = "";
        for (int depth = 0; cur != null && depth < 8; depth++, cur = cur.getCause()) {
            b.append(prefix).append(cur).append('\n');
            StackTraceElement[] frames = cur.getStackTrace();
            int end = frames.length;
            for (int i = 0; i < frames.length; i++) {
                if ("arena.Arena".equals(frames[i].getClassName())) {
                    end = i;
                    break;
                }
            }
            while (end > 0 && frames[end - 1].getClassName().startsWith("arena.")) {
                end--;
            }
            if (end == 0) {
                end = Math.min(frames.length, MAX_FRAMES); // the kit's own failure: show it all
            }
            int shown = Math.min(end, MAX_FRAMES);
            for (int i = 0; i < shown; i++) {
                b.append("\tat ").append(frames[i]).append('\n');
            }
            if (shown < end) {
                b.append("\t... ").append(end - shown).append(" more\n");
            }
            prefix = "Caused by: ";
            if (cur.getCause() == cur) {
                break;
            }
        }
        return b.toString();
    }

    static void log(String s) {
        PrintStream err = System.err;
        err.print(s);
        err.flush();
    }
}
