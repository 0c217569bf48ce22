import arena.Arena;
import arena.Finger;
import arena.Finger.Hit;
import arena.Finger.Move;
import arena.Finger.Switch;
import java.util.List;

/**
 * A small finger bot, one move deep: wins or knocks out a hand when it can, and otherwise prefers
 * a move after which the opponent cannot knock out one of its hands.
 */
public class Bot {
    static final class Finisher implements Finger.Player {
        @Override
        public Move move(Finger.State s) {
            List<Move> legal = s.legalMoves();
            Move best = legal.get(0);
            int bestScore = Integer.MIN_VALUE;
            for (Move m : legal) {
                int score = score(s, m);
                if (score > bestScore) {
                    best = m;
                    bestScore = score;
                }
            }
            return best;
        }

        /** How good m is: the hands after it, then whether the opponent can hit back hard. */
        static int score(Finger.State s, Move m) {
            int[] own = {s.ownLeft(), s.ownRight()};
            int[] opp = {s.opponentLeft(), s.opponentRight()};
            int score = 0;
            if (m instanceof Hit h) {
                int hit = opp[h.to()] + own[h.from()];
                if (hit >= 5) {
                    opp[h.to()] = 0;
                    score += 10;
                } else {
                    opp[h.to()] = hit;
                }
                if (opp[0] == 0 && opp[1] == 0) {
                    return 1000; // the game is won
                }
            } else if (m instanceof Switch sw) {
                own[0] = sw.left();
                own[1] = sw.right();
            }
            // Can the opponent then knock out one of my hands?
            for (int a : opp) {
                for (int b : own) {
                    if (a > 0 && b > 0 && a + b >= 5) {
                        return score - 5;
                    }
                }
            }
            return score;
        }
    }

    public static void main(String[] args) {
        Arena.serve("finisher", "arena examples", Finger.play(Finisher::new));
    }
}
