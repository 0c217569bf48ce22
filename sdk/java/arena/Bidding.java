package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * The bidding game: two players bid for a bottle that moves one place toward each round's winner
 * (rules: docs/rules/bidding.md).
 *
 * <pre>{@code
 * Arena.serve("steady", "me", Bidding.play(() -> state -> Math.min(state.ownMoney(), 12)));
 * }</pre>
 *
 * A bid must be at least 1 and at most {@link State#ownMoney()}, or 0 when the player has no
 * money left. A match is a series of games with sides alternating; {@link State#ownBids()} and
 * {@link State#opponentBids()} hold the bids of the current game only.
 */
public final class Bidding {
    private Bidding() {}

    /** The registry name. */
    public static final String GAME = "bidding";

    /** Side A wins the bottle at place 10, side B at place 0. A holds the draw advantage first. */
    public enum Side {
        UNKNOWN,
        A,
        B
    }

    static final String[] SIDES = {"BIDDING_PLAYER_UNSPECIFIED", "BIDDING_PLAYER_A", "BIDDING_PLAYER_B"};

    /** The match's fixed setup and seat. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs,
                        int games, int startMoney, int maxRounds, String ownName, String opponentName) {}

    /** What the player sees before a bid: one object per seat, updated in place. */
    public static final class State extends Clock {
        private final Setup setup;
        private int game;
        private boolean newGame;
        private int round;
        private Side side = Side.UNKNOWN;
        private int ownMoney;
        private int opponentMoney;
        private int startMoney;
        private int bottlePosition = 5;
        private List<Integer> ownBids = new ArrayList<>();
        private List<Integer> opponentBids = new ArrayList<>();
        private List<Integer> ownView = Collections.unmodifiableList(ownBids);
        private List<Integer> opponentView = Collections.unmodifiableList(opponentBids);
        private int roundsWon;
        private int roundsLost;
        private boolean drawAdvantage;
        private String opponentName;
        private int gamesWon;
        private int gamesLost;
        private int gamesDrawn;

        State(Setup setup) {
            this.setup = setup;
            this.ownMoney = setup.startMoney();
            this.opponentMoney = setup.startMoney();
            this.startMoney = setup.startMoney();
            this.opponentName = setup.opponentName();
        }

        public Setup setup() {
            return setup;
        }

        /** The game within the match, from 1. */
        public int game() {
            return game;
        }

        /** True on the first bid of a game. */
        public boolean newGame() {
            return newGame;
        }

        /** The round within the game, from 1. */
        public int round() {
            return round;
        }

        public Side side() {
            return side;
        }

        public boolean isPlayerA() {
            return side == Side.A;
        }

        public int ownMoney() {
            return ownMoney;
        }

        public int opponentMoney() {
            return opponentMoney;
        }

        /** Dollars each player has at the start of each game. */
        public int startMoney() {
            return startMoney;
        }

        /** The bottle's place, 0..10: side A wins at 10, side B at 0. */
        public int bottlePosition() {
            return bottlePosition;
        }

        /** This player's bids of the current game, oldest first (read-only). */
        public List<Integer> ownBids() {
            return ownView;
        }

        /** The opponent's bids of the current game, oldest first (read-only). */
        public List<Integer> opponentBids() {
            return opponentView;
        }

        /** Rounds of this game won (a tie counts for the draw advantage's holder). */
        public int roundsWon() {
            return roundsWon;
        }

        public int roundsLost() {
            return roundsLost;
        }

        /** True while this player holds the draw advantage. */
        public boolean drawAdvantage() {
            return drawAdvantage;
        }

        public String ownName() {
            return setup.ownName();
        }

        public String opponentName() {
            return opponentName;
        }

        public int gamesWon() {
            return gamesWon;
        }

        public int gamesLost() {
            return gamesLost;
        }

        public int gamesDrawn() {
            return gamesDrawn;
        }

        /** How many more rounds this player must win (net) for the bottle to reach its end. */
        public int placesToWin() {
            return side == Side.A ? 10 - bottlePosition : bottlePosition;
        }

        /** How many more rounds the opponent must win (net) to take the bottle. */
        public int placesToLose() {
            return 10 - placesToWin();
        }

        /** The least legal bid: 1, or 0 when this player has no money left. */
        public int minBid() {
            return Math.min(1, ownMoney);
        }

        void observe(Json.Obj o) {
            int g = o.i32("game");
            boolean ng = o.bool("newGame");
            int rnd = o.i32("round");
            if (ng || g != game) {
                ownBids = new ArrayList<>();
                opponentBids = new ArrayList<>();
                ownView = Collections.unmodifiableList(ownBids);
                opponentView = Collections.unmodifiableList(opponentBids);
            }
            // The previous round's bids, once (the round number guards against a repeated request).
            if (o.bool("hasLast") && ownBids.size() < rnd - 1) {
                ownBids.add(o.i32("lastOwnBid"));
                opponentBids.add(o.i32("lastOpponentBid"));
            }
            game = g;
            newGame = ng;
            round = rnd;
            int p = o.enumValue("player", SIDES);
            side = Side.values()[p];
            ownMoney = o.i32("ownMoney");
            opponentMoney = o.i32("opponentMoney");
            startMoney = o.i32("startMoney");
            bottlePosition = o.i32("bottlePosition");
            roundsWon = o.i32("roundsWon");
            roundsLost = o.i32("roundsLost");
            drawAdvantage = o.bool("drawAdvantage");
            String on = o.str("opponentName");
            if (!on.isEmpty()) {
                opponentName = on;
            }
            gamesWon = o.i32("gamesWon");
            gamesLost = o.i32("gamesLost");
            gamesDrawn = o.i32("gamesDrawn");
        }
    }

    /** A bidding player: {@link #bid} is the one method to write. */
    @FunctionalInterface
    public interface Player {
        /** Called once when the match opens. */
        default void start(Setup setup) {}

        /** This round's sealed bid in whole dollars. */
        long bid(State state);

        /** Called once when the match is over (bidding sends no final observation). */
        default void end(Outcome<State> outcome) {}
    }

    /** The game, played by a new player from {@code players} for each match (all its games). */
    public static Game play(Supplier<? extends Player> players) {
        return new Game(GAME) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(),
                        s.i32("games"), s.i32("startMoney"), s.i32("maxRounds"), s.str("ownName"),
                        s.str("opponentName"));
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
            long bid = player.bid(state);
            out.append("\"bidding\":{");
            if (bid != 0) {
                out.append("\"bid\":\"").append(bid).append('"');
            }
            out.append('}');
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
