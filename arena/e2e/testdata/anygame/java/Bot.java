import arena.Any;
import arena.Arena;
import arena.Json;

/**
 * A dynamite bot with no dynamite code of the kit's: it reads the observation and writes the
 * action as JSON (arena.Any). Dynamite while more than 97 are left, then rock, paper, scissors
 * by round.
 */
public class Bot {
    static final String[] THROWS = {"ROCK", "PAPER", "SCISSORS"};

    public static void main(String[] args) {
        Arena.serve("any-java", "arena e2e", Any.play("dynamite", () -> state -> {
            Json.Obj o = state.observation();
            String t = o.i32("ownDynamiteLeft") > 97 ? "DYNAMITE" : THROWS[o.i32("round") % 3];
            return Json.object("move", "DYNAMITE_MOVE_" + t);
        }));
    }
}
