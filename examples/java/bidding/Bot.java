import arena.Arena;
import arena.Bidding;

/** A small bidding bot: spreads its money over the rounds it still needs to win. */
public class Bot {
    static long spread(Bidding.State s) {
        if (s.ownMoney() == 0) {
            return 0;
        }
        int share = s.ownMoney() / Math.max(1, s.placesToWin());
        // Outbid a broke opponent by one dollar; never bid more than we have, nor less than 1.
        return Math.max(1, Math.min(Math.min(s.ownMoney(), share), s.opponentMoney() + 1));
    }

    public static void main(String[] args) {
        Arena.serve("spreader", "arena examples", Bidding.play(() -> Bot::spread));
    }
}
