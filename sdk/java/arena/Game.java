package arena;

import java.util.List;
import java.util.function.Supplier;

/**
 * One game a bot plays: made by {@code Dynamite.play(...)}, {@code Finger.play(...)} and the
 * others, and handed to {@link Arena#serve}. Not meant to be extended outside the kit.
 */
public abstract class Game {
    private final String name;

    Game(String name) {
        this.name = name;
    }

    /** The game's registry name ({@code "dynamite"} ...). */
    public final String name() {
        return name;
    }

    /** Opens a seat: builds the player (user code, which may throw) and calls its start hook. */
    abstract Seat open(Info info, Json.Obj setup);

    /** The fields of a {@code StartRequest} every game shares. */
    record Info(String matchId, int seat, List<String> players, long deadlineMs, long clockMs) {
        static Info of(Json.Obj start) {
            return new Info(start.str("matchId"), start.i32("seat"), List.copyOf(start.strings("players")),
                    start.i64("deadlineMs"), start.i64("clockMs"));
        }
    }

    /** One open seat. Calls never overlap (the bridge sends one line at a time). */
    abstract static class Seat {
        /**
         * Applies the observation, asks the player and appends the action's JSON field, e.g.
         * {@code "dynamite":{"move":"DYNAMITE_MOVE_ROCK"}}, to out. Throws InvalidAnswer for an
         * answer it cannot encode, and whatever the player's code throws.
         */
        abstract void act(Json.Obj act, Json.Obj obs, long receivedNanos, StringBuilder out);

        /** Applies the final observation (obs, may be null) and calls the player's end hook. */
        abstract void end(Json.Obj obs, Result result, double score);
    }

    /** What every game's seat holds: its player and the state handed to it. */
    abstract static class PlayerSeat<P, S extends Clock> extends Seat {
        final P player;
        final S state;

        PlayerSeat(P player, S state) {
            this.player = player;
            this.state = state;
        }
    }

    /** A new player from the supplier, checked: what every game's open starts with. */
    static <P> P made(Supplier<? extends P> players) {
        P p = players.get();
        if (p == null) {
            throw new IllegalStateException("the player supplier returned null");
        }
        return p;
    }

    static void tick(Clock c, Json.Obj act, long receivedNanos) {
        c.tick(receivedNanos, act.i64("deadlineMs"), act.i64("clockRemainingMs"), act.enumValue("clockMode", Clock.CLOCK_MODES),
                act.i64("budgetUs"), act.i64("bankRemainingUs"), act.i64("wallCapMs"));
    }

    static Json.Obj orEmpty(Json.Obj o) {
        return o != null ? o : EMPTY;
    }

    static final Json.Obj EMPTY = new Json.Obj(java.util.Map.of());

    /** A short description of a bad answer, for error messages. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        String text;
        try {
            text = String.valueOf(value);
        } catch (RuntimeException e) {
            text = "<unprintable>";
        }
        if (text.length() > 120) {
            text = text.substring(0, 117) + "...";
        }
        return text + " (" + value.getClass().getName() + ")";
    }
}
