import arena.Any;
import arena.Arena;
import arena.Json;

/** A coin bot with the kit's generic path (arena.Any): tails on even rounds, heads on odd. */
public class Bot {
    public static void main(String[] args) {
        Arena.serve("coin-java", "newgame test", Any.play("coin", () -> state -> {
            Json.Obj o = state.observation();
            return Json.object("call", o.i32("round") % 2 == 0 ? "COIN_SIDE_TAILS" : "COIN_SIDE_HEADS");
        }));
    }
}
