package arena;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The auction game: sealed bids for a known list of paintings; the first to own
 * {@code requiredCount} works of one artist wins (rules: docs/rules/auction.md).
 *
 * <pre>{@code
 * Arena.serve("collector", "me", Auction.play(() -> state ->
 *         Math.min(state.ownMoney(), 10 * (state.ownCollection().getOrDefault(state.item(), 0) + 1))));
 * }</pre>
 *
 * The whole item list is {@code state.setup().auctionItems()}; {@link State#rounds()} lists every
 * round sold so far and {@link State#collections()} counts what each player owns per artist. A
 * bid above the player's money, negative or fractional counts as 0. Each player also has a chess
 * clock: {@link State#ownRemainTime()} and {@link Clock#clockRemainingMs()}.
 */
public final class Auction {
    private Auction() {}

    /** The registry name. */
    public static final String GAME = "auction";

    /**
     * One sold item.
     *
     * @param itemIndex the item's index in the auction list, from 0
     * @param artist    its artist ("t0", "t1", ...)
     * @param winner    the buyer's name, or null when nobody bought it
     * @param bid       what the winner paid; -1 when nobody won
     */
    public record RoundResult(int itemIndex, String artist, String winner, long bid) {}

    /** The auction's fixed setup and seat. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs,
                        int artistsNum, int requiredCount, List<String> auctionItems, int playerCount,
                        List<String> playerNames, String ownName, int startMoney) {}

    /** What the player sees before a bid: the previous round's result and everything before. */
    public static final class State extends Clock {
        private final Setup setup;
        private int itemIndex;
        private String item;
        private boolean finished;
        private String bidItem = "";
        private String bidWinner;
        private long winningBid = -1;
        private Map<String, Long> wealthTable = new LinkedHashMap<>();
        private Map<String, Double> remainTime = new LinkedHashMap<>();
        private long ownMoney;
        private String gameWinner = "";
        private final List<RoundResult> rounds = new ArrayList<>();
        private final List<RoundResult> roundsView = Collections.unmodifiableList(rounds);
        private final Map<String, Map<String, Integer>> collections = new LinkedHashMap<>();

        State(Setup setup) {
            this.setup = setup;
            this.item = setup.auctionItems().isEmpty() ? "" : setup.auctionItems().get(0);
            for (String n : setup.playerNames()) {
                wealthTable.put(n, (long) setup.startMoney());
                collections.put(n, new HashMap<>());
            }
            this.ownMoney = setup.startMoney();
        }

        public Setup setup() {
            return setup;
        }

        /** The index of the item now on sale, from 0. */
        public int itemIndex() {
            return itemIndex;
        }

        /** The artist of the item now on sale; "" once the auction is finished. */
        public String item() {
            return item;
        }

        /** True when the auction is over (seen in {@code end}). */
        public boolean finished() {
            return finished;
        }

        /** The previous round's artist ("" before the first round). */
        public String bidItem() {
            return bidItem;
        }

        /** The previous round's winner; null when nobody won. */
        public String bidWinner() {
            return bidWinner;
        }

        /** The previous round's price; -1 when nobody won. */
        public long winningBid() {
            return winningBid;
        }

        /** Everyone's money by name; -1 for a disqualified player (read-only). */
        public Map<String, Long> wealthTable() {
            return Collections.unmodifiableMap(wealthTable);
        }

        /** Everyone's remaining clock by name, in seconds (read-only). */
        public Map<String, Double> remainTime() {
            return Collections.unmodifiableMap(remainTime);
        }

        public long ownMoney() {
            return ownMoney;
        }

        /** The winner's name once finished; "" for a draw. */
        public String gameWinner() {
            return gameWinner;
        }

        /** Every sold round so far, oldest first (read-only). */
        public List<RoundResult> rounds() {
            return roundsView;
        }

        /** Works owned per player and artist: {@code collections().get(name).get(artist)} (read-only). */
        public Map<String, Map<String, Integer>> collections() {
            return Collections.unmodifiableMap(collections);
        }

        /** Works this player owns per artist (read-only). */
        public Map<String, Integer> ownCollection() {
            Map<String, Integer> c = collections.get(setup.ownName());
            return c == null ? Map.of() : Collections.unmodifiableMap(c);
        }

        /** This player's remaining clock in seconds, as of the previous round. */
        public double ownRemainTime() {
            Double t = remainTime.get(setup.ownName());
            return t != null ? t : clockRemainingMs() / 1000.0;
        }

        /** How many more works of artist the named player must win. */
        public int needs(String player, String artist) {
            Map<String, Integer> c = collections.get(player);
            int have = c == null ? 0 : c.getOrDefault(artist, 0);
            return Math.max(0, setup.requiredCount() - have);
        }

        void observe(Json.Obj o) {
            int idx = o.i32("itemIndex");
            String bi = o.str("bidItem");
            String bw = o.str("bidWinner");
            String winner = bw.isEmpty() ? null : bw;
            long wb = o.i64("winningBid");
            int prev = idx - 1;
            if (!bi.isEmpty() && (rounds.isEmpty() || rounds.get(rounds.size() - 1).itemIndex() < prev)) {
                rounds.add(new RoundResult(prev, bi, winner, wb));
                if (winner != null) {
                    collections.computeIfAbsent(winner, k -> new HashMap<>()).merge(bi, 1, Integer::sum);
                }
            }
            itemIndex = idx;
            item = o.str("item");
            finished = o.bool("finished");
            bidItem = bi;
            bidWinner = winner;
            winningBid = wb;
            Map<String, Long> wt = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : o.map("wealthTable").entrySet()) {
                wt.put(e.getKey(), Json.toLong(e.getValue(), "wealthTable"));
            }
            wealthTable = wt;
            Map<String, Double> rt = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : o.map("remainTime").entrySet()) {
                rt.put(e.getKey(), Json.toDouble(e.getValue(), "remainTime"));
            }
            remainTime = rt;
            ownMoney = o.i64("ownMoney");
            gameWinner = o.str("gameWinner");
        }
    }

    /** An auction player: {@link #bid} is the one method to write. */
    @FunctionalInterface
    public interface Player {
        /** Called once when the auction opens, with the whole item list. */
        default void start(Setup setup) {}

        /** The sealed bid for {@code state.item()}: a whole number (anything else counts as 0). */
        double bid(State state);

        /** Called once when the auction is over; {@code outcome.state()} has the final round. */
        default void end(Outcome<State> outcome) {}
    }

    /** The game, played by a new player from {@code players} for each auction. */
    public static Game play(Supplier<? extends Player> players) {
        return new Game(GAME) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(),
                        s.i32("artistsNum"), s.i32("requiredCount"), artists(s.strings("auctionItems")),
                        s.i32("playerCount"), List.copyOf(s.strings("playerNames")), s.str("ownName"),
                        s.i32("startMoney"));
                Player p = Game.made(players);
                p.start(setup);
                return new Table(p, new State(setup));
            }
        };
    }

    /** The item list with one String per artist (a million items name at most a few thousand). */
    private static List<String> artists(List<String> items) {
        Map<String, String> seen = new HashMap<>();
        String[] out = new String[items.size()];
        for (int i = 0; i < out.length; i++) {
            String a = items.get(i);
            String prev = seen.putIfAbsent(a, a);
            out[i] = prev != null ? prev : a;
        }
        return List.of(out);
    }

    private static final class Table extends Game.PlayerSeat<Player, State> {
        Table(Player player, State state) {
            super(player, state);
        }

        @Override
        void act(Json.Obj act, Json.Obj obs, long now, StringBuilder out) {
            state.observe(obs);
            Game.tick(state, act, now);
            double bid = player.bid(state);
            out.append("\"auction\":{");
            if (bid != 0) {
                Json.number(out.append("\"bid\":"), bid);
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
