package arena;

/**
 * What a player's {@code end} hook gets when the host closes the seat.
 *
 * @param result the seat's result
 * @param score  the seat's score in the game's own unit
 * @param state  the seat's state after the final observation (if the game sends one)
 */
public record Outcome<S>(Result result, double score, S state) {}
