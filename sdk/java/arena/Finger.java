package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * The finger game ("chopsticks"): hit the opponent's hands or switch your own fingers (rules:
 * docs/rules/finger.md).
 *
 * <pre>{@code
 * Arena.serve("first-legal", "me", Finger.play(() -> state -> state.legalMoves().get(0)));
 * }</pre>
 *
 * {@link Hit#LEFT_TO_RIGHT} means: my LEFT hand hits the opponent's RIGHT hand;
 * {@code new Switch(l, r)} sets my hands to l and r fingers (same total). A match is a series of
 * games; {@link State#history()} holds the moves of the current game only.
 */
public final class Finger {
    private Finger() {}

    /** The registry name. */
    public static final String GAME = "finger";

    /** A move: one of the four {@link Hit}s or a {@link Switch}. */
    public sealed interface Move permits Hit, Switch {}

    /** A hit: my hand (first word) hits the opponent's hand (last word). */
    public enum Hit implements Move {
        LEFT_TO_LEFT(0, 0),
        LEFT_TO_RIGHT(0, 1),
        RIGHT_TO_LEFT(1, 0),
        RIGHT_TO_RIGHT(1, 1);

        private final int from;
        private final int to;

        Hit(int from, int to) {
            this.from = from;
            this.to = to;
        }

        /** My attacking hand: 0 left, 1 right. */
        public int from() {
            return from;
        }

        /** The opponent's hand that is hit: 0 left, 1 right. */
        public int to() {
            return to;
        }
    }

    /** A switch: my hands become exactly {@code left} and {@code right} fingers. */
    public record Switch(int left, int right) implements Move {}

    static final String[] WIRE = {"FINGER_MOVE_UNSPECIFIED", "FINGER_MOVE_LEFT_TO_LEFT",
        "FINGER_MOVE_LEFT_TO_RIGHT", "FINGER_MOVE_RIGHT_TO_LEFT", "FINGER_MOVE_RIGHT_TO_RIGHT",
        "FINGER_MOVE_SWITCH"};
    private static final Hit[] HITS = Hit.values();

    /** One move of the current game: who made it ({@code own} is true for this player's). */
    public record HistoryEntry(String player, Move move, boolean own) {}

    /** The match's fixed setup and seat. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs,
                        int games, int maxRounds, String ownName, String opponentName) {}

    /** What the player sees before its move: one object per seat, updated in place. */
    public static final class State extends Clock {
        private final Setup setup;
        private int game;
        private boolean newGame;
        private int round;
        private String startingPlayer = "";
        private boolean started;
        private int ownLeft = 1;
        private int ownRight = 1;
        private int opponentLeft = 1;
        private int opponentRight = 1;
        private List<HistoryEntry> history = new ArrayList<>();
        private List<HistoryEntry> historyView = Collections.unmodifiableList(history);
        private int gamesWon;
        private int gamesLost;
        private int gamesBothLost;

        State(Setup setup) {
            this.setup = setup;
        }

        public Setup setup() {
            return setup;
        }

        /** The game within the match, from 1. */
        public int game() {
            return game;
        }

        /** True on this player's first move of a game. */
        public boolean newGame() {
            return newGame;
        }

        /** The move about to be played in this game, from 1 (the seed's current round is round - 1). */
        public int round() {
            return round;
        }

        /** The name of the player who started this game. */
        public String startingPlayer() {
            return startingPlayer;
        }

        /** True when this player started this game. */
        public boolean started() {
            return started;
        }

        public int ownLeft() {
            return ownLeft;
        }

        public int ownRight() {
            return ownRight;
        }

        public int opponentLeft() {
            return opponentLeft;
        }

        public int opponentRight() {
            return opponentRight;
        }

        /** The moves of the current game, oldest first (read-only; a new list each game). */
        public List<HistoryEntry> history() {
            return historyView;
        }

        public int gamesWon() {
            return gamesWon;
        }

        public int gamesLost() {
            return gamesLost;
        }

        /** Games ended by the move cap (both lose). */
        public int gamesBothLost() {
            return gamesBothLost;
        }

        public String ownName() {
            return setup.ownName();
        }

        public String opponentName() {
            return setup.opponentName();
        }

        /** Whether the move is legal now (an illegal move loses the game at once). */
        public boolean legal(Move move) {
            if (move instanceof Hit h) {
                return hand(true, h.from()) > 0 && hand(false, h.to()) > 0;
            }
            if (move instanceof Switch s) {
                int l = s.left();
                int r = s.right();
                return l >= 0 && l <= 5 && r >= 0 && r <= 5 && l + r == ownLeft + ownRight
                        && !(l == ownLeft && r == ownRight) && !(l == ownRight && r == ownLeft);
            }
            return false;
        }

        /** Every legal move now: hits first, then switches by growing left hand. */
        public List<Move> legalMoves() {
            List<Move> moves = new ArrayList<>(8);
            for (Hit h : HITS) {
                if (legal(h)) {
                    moves.add(h);
                }
            }
            int total = ownLeft + ownRight;
            for (int l = 0; l <= 5; l++) {
                Switch s = new Switch(l, total - l);
                if (legal(s)) {
                    moves.add(s);
                }
            }
            return moves;
        }

        private int hand(boolean own, int which) {
            return own ? (which == 0 ? ownLeft : ownRight) : (which == 0 ? opponentLeft : opponentRight);
        }

        void observe(Json.Obj o) {
            int g = o.i32("game");
            boolean ng = o.bool("newGame");
            if (ng || g != game) {
                history = new ArrayList<>();
                historyView = Collections.unmodifiableList(history);
            }
            game = g;
            newGame = ng;
            round = o.i32("round");
            startingPlayer = o.str("startingPlayer");
            started = o.bool("started");
            ownLeft = o.i32("ownLeft");
            ownRight = o.i32("ownRight");
            opponentLeft = o.i32("opponentLeft");
            opponentRight = o.i32("opponentRight");
            gamesWon = o.i32("gamesWon");
            gamesLost = o.i32("gamesLost");
            gamesBothLost = o.i32("gamesBothLost");
            for (Object e : o.list("recent")) {
                if (!(e instanceof Json.Obj entry)) {
                    throw new Json.TypeError("field recent holds a value that is not an object");
                }
                history.add(new HistoryEntry(entry.str("player"), fromWire(Game.orEmpty(entry.obj("action"))),
                        entry.bool("own")));
            }
        }
    }

    static Move fromWire(Json.Obj a) {
        int m = a.enumValue("move", WIRE);
        if (m >= 1 && m <= 4) {
            return HITS[m - 1];
        }
        return new Switch(a.i32("switchLeft"), a.i32("switchRight"));
    }

    /** A finger player: {@link #move} is the one method to write. */
    @FunctionalInterface
    public interface Player {
        /** Called once when the match opens. */
        default void start(Setup setup) {}

        /** A hit or a switch. */
        Move move(State state);

        /** Called once when the match is over (finger sends no final observation). */
        default void end(Outcome<State> outcome) {}
    }

    /** The game, played by a new player from {@code players} for each match (all its games). */
    public static Game play(Supplier<? extends Player> players) {
        return new Game(GAME) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(),
                        s.i32("games"), s.i32("maxRounds"), s.str("ownName"), s.str("opponentName"));
                Player p = Game.made(players);
                p.start(setup);
                return new Table(p, new State(setup));
            }
        };
    }

    private static final class Table extends Game.PlayerSeat<Player, State> {
        Table(Player player, State state) {
            super(player, state);
        }

        @Override
        void act(Json.Obj act, Json.Obj obs, long now, StringBuilder out) {
            state.observe(obs);
            Game.tick(state, act, now);
            Move m = player.move(state);
            if (m instanceof Hit h) {
                out.append("\"finger\":{\"move\":\"").append(WIRE[h.ordinal() + 1]).append("\"}");
            } else if (m instanceof Switch s) {
                out.append("\"finger\":{\"move\":\"FINGER_MOVE_SWITCH\"");
                if (s.left() != 0) {
                    out.append(",\"switchLeft\":").append(s.left());
                }
                if (s.right() != 0) {
                    out.append(",\"switchRight\":").append(s.right());
                }
                out.append('}');
            } else {
                throw new InvalidAnswer("move() returned " + Game.describe(m)
                        + ", not a Finger.Hit or a Finger.Switch");
            }
        }

        @Override
        void end(Json.Obj obs, Result result, double score) {
            if (obs != null) {
                state.observe(obs);
            }
            player.end(new Outcome<>(result, score, state));
        }
    }
}
