import arena.Arena;
import arena.Dynamite;
import arena.Dynamite.Move;

/**
 * A small dynamite bot: throws its dynamite while a draw has raised the stake, otherwise beats
 * the opponent's favourite throw so far.
 */
public class Bot {
    static final class Frequency implements Dynamite.Player {
        private final int[] seen = new int[Move.values().length];
        private int counted;

        @Override
        public Move move(Dynamite.State state) {
            // Count the opponent's throws from the history the kit rebuilds.
            for (; counted < state.rounds().size(); counted++) {
                Move theirs = state.rounds().get(counted).opponent();
                if (theirs != null) {
                    seen[theirs.ordinal()]++;
                }
            }
            if (state.ownDynamiteLeft() > 0 && state.stake() >= 2) {
                return Move.DYNAMITE;
            }
            if (counted == 0) {
                return Move.ROCK;
            }
            Move favourite = Move.ROCK;
            for (Move m : Move.values()) {
                if (seen[m.ordinal()] > seen[favourite.ordinal()]) {
                    favourite = m;
                }
            }
            return beat(favourite);
        }

        static Move beat(Move m) {
            return switch (m) {
                case ROCK -> Move.PAPER;
                case PAPER -> Move.SCISSORS;
                case SCISSORS -> Move.ROCK;
                case DYNAMITE -> Move.WATER;
                case WATER -> Move.ROCK;
            };
        }
    }

    public static void main(String[] args) {
        Arena.serve("frequency", "arena examples", Dynamite.play(Frequency::new));
    }
}
