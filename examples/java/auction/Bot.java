import arena.Arena;
import arena.Auction;
import java.util.List;
import java.util.TreeSet;

/** A small auction bot: races for the artist whose works come up soonest, and bids only on those. */
public class Bot {
    static final class Collector implements Auction.Player {
        private String target = "";

        @Override
        public void start(Auction.Setup setup) {
            long best = Long.MAX_VALUE;
            for (String artist : new TreeSet<>(setup.auctionItems())) {
                long at = doneAt(setup.auctionItems(), artist, setup.requiredCount());
                if (at < best) {
                    best = at;
                    target = artist;
                }
            }
        }

        /** The item index at which we would own enough works of artist if we won them all. */
        static long doneAt(List<String> items, String artist, int required) {
            int seen = 0;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).equals(artist) && ++seen >= required) {
                    return i;
                }
            }
            return 1_000_000_000L + seen; // never enough of them
        }

        @Override
        public double bid(Auction.State state) {
            if (!state.item().equals(target)) {
                return 0;
            }
            // Spread the money over the works still needed.
            int needs = Math.max(1, state.needs(state.setup().ownName(), target));
            return state.ownMoney() / needs;
        }
    }

    public static void main(String[] args) {
        Arena.serve("collector", "arena examples", Auction.play(Collector::new));
    }
}
