package arena;

/**
 * A player's answer that is not a move of its game (a null move, for instance). The kit answers it
 * as a {@code BOT_ERROR_KIND_INVALID_ANSWER} error, which the host charges as garbage; a player may
 * throw it too. Any other exception is answered as {@code BOT_ERROR_KIND_EXCEPTION} (a crash).
 */
public class InvalidAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidAnswer(String message) {
        super(message);
    }
}
