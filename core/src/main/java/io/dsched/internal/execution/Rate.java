package io.dsched.internal.execution;

import io.dsched.internal.store.TargetLimits;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * A handler's rate limit, {@code permits/period} ({@code "50/1s"}, {@code "5000/1h"}): a token
 * bucket that holds up to {@code permits} tokens, refilled evenly at {@code permits} per
 * {@code period}, shared by the cluster. Each attempt claimed takes a token; a full bucket lets a
 * burst of {@code permits} start at once.
 *
 * @param permits how many attempts start per period, and the most at once
 * @param period the period
 */
public record Rate(int permits, Duration period) {

    private static final Pattern FORM = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\S+)\\s*");

    public Rate {
        if (permits < 1 || period.compareTo(Duration.ofMillis(1)) < 0 || period.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException(
                    "A rate needs at least one permit per period of whole milliseconds: " + permits + "/" + period);
        }
    }

    /**
     * Reads a rate written as {@code permits/period}, the period as the annotations' durations are written.
     * @param text the rate, such as {@code "50/1s"}
     * @return the rate
     * @throws IllegalArgumentException if it is not one
     */
    public static Rate parse(String text) {
        Matcher matcher = FORM.matcher(text);
        if (matcher.matches()) {
            try {
                return new Rate(
                        Integer.parseInt(matcher.group(1)),
                        DurationFormatterUtils.detectAndParse(matcher.group(2), DurationFormat.Unit.MILLIS));
            } catch (DateTimeParseException | IllegalArgumentException ex) {
                // said below
            }
        }
        throw new IllegalArgumentException(
                "'" + text
                        + "' is not a rate: write permits/period with a period of whole milliseconds, such as 50/1s or 5000/1h");
    }

    /**
     * The rate as it is written, such as {@code "50/1s"}.
     * @return the text {@link #parse} reads back
     */
    public String text() {
        long millis = this.period.toMillis();
        for (Unit unit : Unit.values()) {
            if (millis % unit.millis == 0) {
                return this.permits + "/" + (millis / unit.millis) + unit.symbol;
            }
        }
        return this.permits + "/" + millis + "ms";
    }

    /**
     * The number of permits per period a rate, or a quota, sets, as a target's limits hold it.
     * @param rate the rate, or {@code null}
     * @return its permits and period, or {@code null} for none
     */
    public static TargetLimits.PerPeriod perPeriod(Rate rate) {
        return (rate != null) ? new TargetLimits.PerPeriod(rate.permits(), rate.period()) : null;
    }

    /** The units a period is written in, the largest first. */
    private enum Unit {
        DAYS(86_400_000L, "d"),
        HOURS(3_600_000L, "h"),
        MINUTES(60_000L, "m"),
        SECONDS(1_000L, "s"),
        MILLIS(1L, "ms");

        private final long millis;

        private final String symbol;

        Unit(long millis, String symbol) {
            this.millis = millis;
            this.symbol = symbol;
        }
    }

    @Override
    public String toString() {
        return this.permits + "/" + this.period;
    }
}
