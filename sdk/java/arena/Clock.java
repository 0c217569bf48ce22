package arena;

import java.time.Duration;

/**
 * The time of the current move, set when its request line arrives. Every game's state extends it.
 *
 * <p>{@link #timeLeft()} is what is left of {@code deadlineMs}, counted from when the line was
 * read; leave a margin (the host's clock also counts the pipe and the bridge).
 */
public abstract class Clock {
    private long receivedNanos;
    private long deadlineMs;
    private long clockRemainingMs;

    Clock() {}

    final void tick(long receivedNanos, long deadlineMs, long clockRemainingMs) {
        this.receivedNanos = receivedNanos;
        this.deadlineMs = deadlineMs;
        this.clockRemainingMs = clockRemainingMs;
    }

    /** Time left for this move (negative once the deadline has passed). */
    public final Duration timeLeft() {
        return Duration.ofNanos(timeLeftNanos());
    }

    /** Milliseconds left for this move, rounded down (negative once the deadline has passed). */
    public final long timeLeftMillis() {
        return Math.floorDiv(timeLeftNanos(), 1_000_000L);
    }

    private long timeLeftNanos() {
        return deadlineMs * 1_000_000L - (System.nanoTime() - receivedNanos);
    }

    /** Time since the current request arrived. */
    public final Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - receivedNanos);
    }

    /** The time this move was given, in ms: the move deadline, or less when the clock is short. */
    public final long deadlineMs() {
        return deadlineMs;
    }

    /** What was left of the seat's total clock when the request was sent, in ms (0 in a game
     *  without a clock). */
    public final long clockRemainingMs() {
        return clockRemainingMs;
    }
}
