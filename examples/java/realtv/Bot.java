import arena.Arena;
import arena.Realtv;
import arena.Realtv.Context;
import arena.Realtv.PlayerContext;

/** A small Real TV bot: votes out the weakest other player, never itself (that is betrayal). */
public class Bot {
    static final class Loyal implements Realtv.Player {
        @Override
        public String voteForElimination(Context ctx) {
            return Realtv.weakest(ctx.others(ctx.activePlayers())).map(PlayerContext::id).orElse(null);
        }

        @Override
        public String voteForTie(Context ctx) {
            return Realtv.weakest(ctx.others(ctx.currentTies()))
                    .or(() -> Realtv.weakest(ctx.currentTies()))
                    .map(PlayerContext::id).orElse(null);
        }
    }

    public static void main(String[] args) {
        Arena.serve("Loyal", "arena examples", Realtv.play(Loyal::new));
    }
}
