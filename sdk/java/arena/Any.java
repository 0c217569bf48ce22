package arena;

import java.util.List;
import java.util.function.Supplier;

/**
 * Any game, as JSON: the path for a game this kit has no class for (or a bot that wants the wire
 * messages as they are). The player gets the game's setup and each observation as a {@link Json.Obj}
 * (the request's {@code <game>} member, protojson names and all: docs/protocol.md section 8) and
 * answers each move with the action as a JSON object, which the kit sends as the answer's
 * {@code <game>} member. Seats, the clock, steps and errors are the kit's, as for the game classes.
 *
 * <pre>{@code
 * public class Bot {
 *     public static void main(String[] args) {
 *         Arena.serve("heads", "me", Any.play("coin", () -> state -> Json.object("call", "HEADS")));
 *     }
 * }
 * }</pre>
 */
public final class Any {
    private Any() {}

    /** How a seat of the game opened: the seat's facts, the game's name and its setup message. */
    public record Setup(String matchId, int seat, List<String> players, long deadlineMs, long clockMs, String game,
                        Json.Obj setup) {}

    /** What the player sees before a move: one object per seat, updated every move. */
    public static final class State extends Clock {
        private final Setup setup;
        private long step;
        private Json.Obj observation = Game.EMPTY;

        State(Setup setup) {
            this.setup = setup;
        }

        public Setup setup() {
            return setup;
        }

        /** The move's step number, as the request gave it (the kit echoes it in the answer). */
        public long step() {
            return step;
        }

        /** The game's observation of this move (in {@code end}: the final one, if the game sent one). */
        public Json.Obj observation() {
            return observation;
        }
    }

    /** A player of any game: {@link #act} is the one method to write. */
    @FunctionalInterface
    public interface Player {
        /** Called once when the match opens, before the first move. */
        default void start(Setup setup) {}

        /**
         * The action for this move: a JSON object, as a {@link Json.Obj} ({@link Json#object}) or a
         * {@code Map<String, ?>} of what {@link Json#write} takes.
         */
        Object act(State state);

        /** Called once when the match is over. */
        default void end(Outcome<State> outcome) {}
    }

    /** The game named {@code game}, played as JSON by a new player from {@code players} for each match. */
    public static Game play(String game, Supplier<? extends Player> players) {
        if (game == null || game.isEmpty()) {
            throw new IllegalArgumentException("Any.play needs the game's registry name, e.g. \"dynamite\"");
        }
        return new Game(game) {
            @Override
            Seat open(Info i, Json.Obj s) {
                Setup setup = new Setup(i.matchId(), i.seat(), i.players(), i.deadlineMs(), i.clockMs(), game, s);
                Player p = Game.made(players);
                p.start(setup);
                return new JsonSeat(p, new State(setup));
            }
        };
    }

    private static final class JsonSeat extends Game.PlayerSeat<Player, State> {
        JsonSeat(Player player, State state) {
            super(player, state);
        }

        @Override
        void act(Json.Obj act, Json.Obj obs, long now, StringBuilder out) {
            state.step = act.i64("step");
            state.observation = obs;
            Game.tick(state, act, now);
            Object action = player.act(state);
            if (!(action instanceof Json.Obj || action instanceof java.util.Map)) {
                throw new InvalidAnswer("the " + state.setup.game()
                        + " action must be a JSON object (Json.Obj or Map), not "
                        + Game.describe(action));
            }
            int mark = out.length();
            Json.quote(out, state.setup.game()).append(':');
            try {
                Json.write(out, action);
            } catch (IllegalArgumentException e) {
                out.setLength(mark);
                throw new InvalidAnswer("the " + state.setup.game() + " action is not JSON: " + e.getMessage());
            }
        }

        @Override
        void end(Json.Obj obs, Result result, double score) {
            if (obs != null) {
                state.observation = obs;
            }
            player.end(new Outcome<>(result, score, state));
        }
    }
}
