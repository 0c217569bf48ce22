import arena.Arena;
import arena.Dynamite;

/** A test bot for SelfTest: prints on System.out, throws at round 2, and leaves a non-daemon
 *  thread running; the kit must keep stdout for the protocol and still exit at the end of stdin. */
public class Bot {
    static final class Noisy implements Dynamite.Player {
        @Override
        public void start(Dynamite.Setup setup) {
            System.out.println("noise from start");
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
        }

        @Override
        public Dynamite.Move move(Dynamite.State state) {
            System.out.print("noise from move, no newline ");
            System.out.printf("round %d%n", state.round());
            if (state.round() == 2) {
                throw new IllegalArgumentException("round two");
            }
            return Dynamite.Move.ROCK;
        }
    }

    public static void main(String[] args) {
        Arena.serve("noisy", "selftest", Dynamite.play(Noisy::new));
    }
}
