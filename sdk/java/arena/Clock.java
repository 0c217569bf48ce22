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
    private boolean cpuClock;
    private long budgetMicros;
    private long bankRemainingMicros;
    private long wallCapMs;

    Clock() {}

    static final String[] CLOCK_MODES = {"CLOCK_MODE_UNSPECIFIED", "CLOCK_MODE_WALL", "CLOCK_MODE_CPU"};

    final void tick(long receivedNanos, long deadlineMs, long clockRemainingMs, int clockMode, long budgetMicros,
            long bankRemainingMicros, long wallCapMs) {
        this.receivedNanos = receivedNanos;
        this.deadlineMs = deadlineMs;
        this.clockRemainingMs = clockRemainingMs;
        this.cpuClock = clockMode == 2;
        // An older host sends no budget: its deadline is the budget.
        this.budgetMicros = budgetMicros > 0 ? budgetMicros : deadlineMs * 1000L;
        this.bankRemainingMicros = Math.max(bankRemainingMicros, 0);
        this.wallCapMs = wallCapMs > 0 ? wallCapMs : deadlineMs;
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

    /** True when moves are charged the CPU time of the bot's own processes (the arena's
     *  default clock), not wall time. */
    public final boolean cpuClock() {
        return cpuClock;
    }

    /** This move's budget: CPU time under the CPU clock, else wall time. */
    public final Duration budget() {
        return Duration.ofNanos(budgetMicros * 1000L);
    }

    /** What is left of the seat's overage bank: the move may spend its budget plus this, and
     *  what it spends past the budget leaves the bank (zero when there is none). */
    public final Duration bankRemaining() {
        return Duration.ofNanos(bankRemainingMicros * 1000L);
    }

    /** The wall time after which the move is a timeout whatever its CPU time, in ms. */
    public final long wallCapMs() {
        return wallCapMs;
    }
}
