package arena;

/** A seat's result in a finished match ({@code UNSPECIFIED} when the match was cut short). */
public enum Result {
    UNSPECIFIED,
    WIN,
    LOSS,
    DRAW;

    static final String[] WIRE = {"RESULT_UNSPECIFIED", "RESULT_WIN", "RESULT_LOSS", "RESULT_DRAW"};
}
