package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Real TV: players on an island vote each other out; betrayers share a bounty when the team fails
 * its trial (rules: docs/rules/realtv.md).
 *
 * <pre>{@code
 * Arena.serve("Weakling", "me", Realtv.play(() -> new Realtv.Player() {
 *     public String voteForElimination(Realtv.Context ctx) {
 *         return Realtv.weakest(ctx.others(ctx.activePlayers())).map(Realtv.PlayerContext::id).orElse(null);
 *     }
 *     public String voteForTie(Realtv.Context ctx) {
 *         return Realtv.weakest(ctx.currentTies()).map(Realtv.PlayerContext::id).orElse(null);
 *     }
 * }));
 * }</pre>
 *
 * A contest opens 11 seats in one process, the script's instances of strength 0..10, and keeps
 * them for all phases: the supplier makes one player per seat, and a static field is shared by
 * the 11 (as class attributes were in the seed). A vote is a player id; voting for yourself, for
 * a player who is not active, or not voting (null or "") in the first vote is betrayal.
 */
public final class Realtv {
    private Realtv() {}

    /** The registry name. */
    public static final String GAME = "realtv";

    // The seed's constants.
    public static final int PLAYERS_PER_ISLAND = 12;
    public static final int SCORE_FOR_TRIAL = 3;
    public static final int SCORE_FOR_LASTMAN = 100;
    public static final int SCORE_FOR_ALL_TRAITORS = 100;
    /** A trial with n players succeeds when their strengths sum to DIFFICULTY_A * n + DIFFICULTY_B or more. */
    public static final int DIFFICULTY_A = 7;
    public static final int DIFFICULTY_B = -3;

    /** Which vote is asked for. */
    public enum Decision {
        UNSPECIFIED,
        ELIMINATION,
        TIE
    }

    static final String[] DECISIONS = {"REALTV_DECISION_UNSPECIFIED", "REALTV_DECISION_ELIMINATION",
        "REALTV_DECISION_TIE"};

    /** A player's votes of one day on the current island (ids as given; "" when none). */
    public record Votes(String firstVote, String tieVote) {}

    /**
     * One player as seen at the start of the day.
     *
     * @param name          the class name of the player's script ("BotPareto" for a filler bot)
     * @param score         as of the start of the day (fractional after a split bounty)
     * @param previousMoves the player's votes on this island, one per day, oldest first
     */
    public record PlayerContext(String id, String name, int strength, double score, List<Votes> previousMoves) {}

    /** The seed's GameContext: filler bots and script instances this phase, and the phase index. */
    public record GameContext(int totalBots, int totalHumans, int phaseIndex) {}

    /** One instance of the script. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs,
                        String id, String name, int strength, int phases, int playersPerIsland, int instance) {}

    /** The seed's Context plus the decision asked: one object per seat, updated in place. */
    public static final class Context extends Clock {
        private final Setup setup;
        private Decision decision = Decision.UNSPECIFIED;
        private int islandIndex;
        private int day;
        private GameContext game = new GameContext(0, 0, 0);
        private Map<String, PlayerContext> activePlayers = Map.of();
        private Map<String, PlayerContext> betrayers = Map.of();
        private Map<String, PlayerContext> eliminatedPlayers = Map.of();
        private Map<String, PlayerContext> currentTies = Map.of();
        private double ownScore;
        private String ownId;

        Context(Setup setup) {
            this.setup = setup;
            this.ownId = setup.id();
        }

        public Setup setup() {
            return setup;
        }

        public Decision decision() {
            return decision;
        }

        public int islandIndex() {
            return islandIndex;
        }

        /** The day on this island, from 1. */
        public int day() {
            return day;
        }

        public GameContext game() {
            return game;
        }

        /** The island's players by id, sorted by id (for a tie vote: without today's traitors). */
        public Map<String, PlayerContext> activePlayers() {
            return activePlayers;
        }

        /** Those who share the bounty if the team fails a trial, by id. */
        public Map<String, PlayerContext> betrayers() {
            return betrayers;
        }

        public Map<String, PlayerContext> eliminatedPlayers() {
            return eliminatedPlayers;
        }

        /** The tied players, during a tie vote only. */
        public Map<String, PlayerContext> currentTies() {
            return currentTies;
        }

        /** This instance's score now. */
        public double ownScore() {
            return ownScore;
        }

        public String ownId() {
            return ownId;
        }

        /** This instance's own entry among the active players, if it is there. */
        public Optional<PlayerContext> me() {
            return Optional.ofNullable(activePlayers.get(ownId));
        }

        /** The players of m other than this instance. */
        public Map<String, PlayerContext> others(Map<String, PlayerContext> m) {
            if (!m.containsKey(ownId)) {
                return m;
            }
            TreeMap<String, PlayerContext> o = new TreeMap<>(m);
            o.remove(ownId);
            return Collections.unmodifiableMap(o);
        }

        void observe(Json.Obj o) {
            decision = Decision.values()[o.enumValue("decision", DECISIONS)];
            islandIndex = o.i32("islandIndex");
            day = o.i32("day");
            Json.Obj g = Game.orEmpty(o.obj("game"));
            game = new GameContext(g.i32("totalBots"), g.i32("totalHumans"), g.i32("phaseIndex"));
            activePlayers = players(o.map("activePlayers"));
            betrayers = players(o.map("betrayers"));
            eliminatedPlayers = players(o.map("eliminatedPlayers"));
            currentTies = players(o.map("currentTies"));
            ownScore = o.dbl("ownScore");
            String id = o.str("ownId");
            if (!id.isEmpty()) {
                ownId = id;
            }
        }
    }

    // Sorted by id, so that iteration order (and a bot's choice among equals) never depends on
    // the order of the JSON object.
    private static Map<String, PlayerContext> players(Map<String, Object> m) {
        if (m.isEmpty()) {
            return Map.of();
        }
        TreeMap<String, PlayerContext> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (!(e.getValue() instanceof Json.Obj p)) {
                throw new Json.TypeError("a player entry is not an object");
            }
            List<Object> moves = p.list("previousMoves");
            List<Votes> votes = new ArrayList<>(moves.size());
            for (Object v : moves) {
                Json.Obj vo = Game.orEmpty(v instanceof Json.Obj x ? x : null);
                votes.add(new Votes(vo.str("firstVote"), vo.str("tieVote")));
            }
            String id = p.str("id");
            out.put(e.getKey(), new PlayerContext(id.isEmpty() ? e.getKey() : id, p.str("name"), p.i32("strength"),
                    p.dbl("score"), Collections.unmodifiableList(votes)));
        }
        return Collections.unmodifiableMap(out);
    }

    /** The player of least strength (the smallest id among equals); empty if there is none. */
    public static Optional<PlayerContext> weakest(Map<String, PlayerContext> players) {
        PlayerContext best = null;
        for (PlayerContext p : players.values()) {
            if (best == null || p.strength() < best.strength()
                    || (p.strength() == best.strength() && p.id().compareTo(best.id()) < 0)) {
                best = p;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The player of greatest strength (the smallest id among equals); empty if there is none. */
    public static Optional<PlayerContext> strongest(Map<String, PlayerContext> players) {
        PlayerContext best = null;
        for (PlayerContext p : players.values()) {
            if (best == null || p.strength() > best.strength()
                    || (p.strength() == best.strength() && p.id().compareTo(best.id()) < 0)) {
                best = p;
            }
        }
        return Optional.ofNullable(best);
    }

    /** A Real TV player (one per instance): both votes return a player id, or null for no vote. */
    public interface Player {
        /** Called once when the instance is created, with its id and strength. */
        default void start(Setup setup) {}

        /** The day's vote: who should leave the island. */
        String voteForElimination(Context ctx);

        /** The tie-break vote among {@code ctx.currentTies()}. */
        String voteForTie(Context ctx);

        /** Called once when the contest is over. */
        default void end(Outcome<Context> outcome) {}
    }

    /** The game, played by a new player from {@code players} for each seat (instance). */
    public static Game play(Supplier<? extends Player> players) {
        return new Game(GAME) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(),
                        s.str("id"), s.str("name"), s.i32("strength"), s.i32("phases"), s.i32("playersPerIsland"),
                        s.i32("instance"));
                Player p = Game.made(players);
                p.start(setup);
                return new Table(p, new Context(setup));
            }
        };
    }

    private static final class Table extends Game.PlayerSeat<Player, Context> {
        Table(Player player, Context state) {
            super(player, state);
        }

        @Override
        void act(Json.Obj act, Json.Obj obs, long now, StringBuilder out) {
            state.observe(obs);
            Game.tick(state, act, now);
            String vote = state.decision() == Decision.TIE ? player.voteForTie(state)
                    : player.voteForElimination(state);
            out.append("\"realtv\":{");
            if (vote != null && !vote.isEmpty()) {
                Json.quote(out.append("\"voteId\":"), vote);
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
