package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * Dynamite: rock, paper, scissors, dynamite and water balloons (rules: docs/rules/dynamite.md).
 *
 * <pre>{@code
 * Arena.serve("rocky", "me", Dynamite.play(() -> state ->
 *         state.ownDynamiteLeft() > 0 && state.stake() > 2 ? Dynamite.Move.DYNAMITE : Dynamite.Move.ROCK));
 * }</pre>
 *
 * A fresh player (from the supplier) plays each match. {@link State#rounds()} lists every round
 * played so far, oldest first, from this player's side.
 */
public final class Dynamite {
    private Dynamite() {}

    /** The registry name. */
    public static final String GAME = "dynamite";

    /** A throw. */
    public enum Move {
        ROCK('R'),
        PAPER('P'),
        SCISSORS('S'),
        DYNAMITE('D'),
        WATER('W');

        private final char letter;

        Move(char letter) {
            this.letter = letter;
        }

        /** The seed's letter: R, P, S, D or W. */
        public char letter() {
            return letter;
        }

        /** The move for a letter R, P, S, D or W; null for anything else. */
        public static Move ofLetter(char c) {
            for (Move m : VALUES) {
                if (m.letter == c) {
                    return m;
                }
            }
            return null;
        }

        /** Whether this throw beats the other (dynamite beats R P S, water beats only dynamite). */
        public boolean beats(Move other) {
            return switch (this) {
                case ROCK -> other == SCISSORS || other == WATER;
                case PAPER -> other == ROCK || other == WATER;
                case SCISSORS -> other == PAPER || other == WATER;
                case DYNAMITE -> other == ROCK || other == PAPER || other == SCISSORS;
                case WATER -> other == DYNAMITE;
            };
        }

        private static final Move[] VALUES = values();

        static Move fromWire(int n) {
            return n >= 1 && n <= VALUES.length ? VALUES[n - 1] : null;
        }

        String wire() {
            return WIRE[ordinal() + 1];
        }
    }

    static final String[] WIRE = {"DYNAMITE_MOVE_UNSPECIFIED", "DYNAMITE_MOVE_ROCK", "DYNAMITE_MOVE_PAPER",
        "DYNAMITE_MOVE_SCISSORS", "DYNAMITE_MOVE_DYNAMITE", "DYNAMITE_MOVE_WATER"};

    /** One played round from this player's side ({@code null} for a throw the wire did not name). */
    public record Round(Move own, Move opponent) {}

    /** The match's fixed rules and seat. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs,
                        int targetScore, int maxRounds, int dynamitePerPlayer) {}

    /** What the player sees before a round: one object per seat, updated in place every round. */
    public static final class State extends Clock {
        private final Setup setup;
        private int round;
        private final List<Round> rounds = new ArrayList<>();
        private final List<Round> roundsView = Collections.unmodifiableList(rounds);
        private int ownScore;
        private int opponentScore;
        private int ownDynamiteLeft;
        private int opponentDynamiteLeft;
        private int stake = 1;

        State(Setup setup) {
            this.setup = setup;
            this.ownDynamiteLeft = setup.dynamitePerPlayer();
            this.opponentDynamiteLeft = setup.dynamitePerPlayer();
        }

        public Setup setup() {
            return setup;
        }

        /** The round about to be played, from 1 (in {@code end}: one past the last round played). */
        public int round() {
            return round;
        }

        /** Every round played so far, oldest first (read-only). */
        public List<Round> rounds() {
            return roundsView;
        }

        /** The last round played, or null before the first. */
        public Round last() {
            return rounds.isEmpty() ? null : rounds.get(rounds.size() - 1);
        }

        public int ownScore() {
            return ownScore;
        }

        public int opponentScore() {
            return opponentScore;
        }

        public int ownDynamiteLeft() {
            return ownDynamiteLeft;
        }

        public int opponentDynamiteLeft() {
            return opponentDynamiteLeft;
        }

        /** What the coming round is worth: 1 plus the draws rolled over. */
        public int stake() {
            return stake;
        }

        void observe(Json.Obj o) {
            int rnd = o.i32("round");
            int lastOwn = o.enumValue("lastOwn", WIRE);
            // The previous round, appended once even if a request were repeated.
            if (rnd > rounds.size() + 1 && lastOwn != 0) {
                rounds.add(new Round(Move.fromWire(lastOwn), Move.fromWire(o.enumValue("lastOpponent", WIRE))));
            }
            round = rnd;
            ownScore = o.i32("ownScore");
            opponentScore = o.i32("opponentScore");
            ownDynamiteLeft = o.i32("ownDynamiteLeft");
            opponentDynamiteLeft = o.i32("opponentDynamiteLeft");
            stake = o.i32("stake");
        }
    }

    /** A dynamite player: {@link #move} is the one method to write. */
    @FunctionalInterface
    public interface Player {
        /** Called once when the match opens, before the first move. */
        default void start(Setup setup) {}

        /** The throw for the coming round. */
        Move move(State state);

        /** Called once when the match is over. */
        default void end(Outcome<State> outcome) {}
    }

    /** The game, played by a new player from {@code players} for each match. */
    public static Game play(Supplier<? extends Player> players) {
        return new Game(GAME) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(),
                        s.i32("targetScore"), s.i32("maxRounds"), s.i32("dynamitePerPlayer"));
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
            if (m == null) {
                throw new InvalidAnswer("move() returned null, not one of ROCK, PAPER, SCISSORS, DYNAMITE, WATER");
            }
            out.append("\"dynamite\":{\"move\":\"").append(m.wire()).append("\"}");
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
