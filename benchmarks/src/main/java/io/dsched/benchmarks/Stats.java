package io.dsched.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/** Medians, spreads and percentiles of measured values. */
final class Stats {

    private Stats() {}

    /**
     * Returns a percentile by the nearest-rank method.
     * @param values the values, in any order
     * @param percent 0 to 100
     * @return the percentile, or NaN for no values
     */
    static double percentile(List<? extends Number> values, double percent) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>();
        values.forEach((value) -> sorted.add(value.doubleValue()));
        Collections.sort(sorted);
        int rank = (int) Math.ceil(percent / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /**
     * Returns the median: the middle value, or the mean of the two middle ones for an even count.
     * @param values the values
     * @return the median
     */
    static double median(List<? extends Number> values) {
        List<Double> sorted = values.stream().map(Number::doubleValue).sorted().toList();
        int middle = sorted.size() / 2;
        return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * Formats the median and spread of repeated runs, such as {@code 2,208 (2,205–2,264)}.
     * @param values one value per run
     * @return the text
     */
    static String spread(List<? extends Number> values) {
        return spread(values, Stats::number);
    }

    /**
     * Formats the median and spread of repeated runs, as {@link #spread(List)} does, each value
     * by a format of its own.
     * @param values one value per run
     * @param format how a value is written, such as {@link #millis}
     * @return the text
     */
    static String spread(List<? extends Number> values, DoubleFunction<String> format) {
        if (values.isEmpty()) {
            return "n/a";
        }
        if (values.size() == 1) {
            return format.apply(values.get(0).doubleValue());
        }
        return format.apply(median(values)) + " (" + format.apply(percentile(values, 0)) + "–"
                + format.apply(percentile(values, 100)) + ")";
    }

    /**
     * Formats a count, such as {@code 1,500}; a median halfway between two counts is rounded.
     * @param value the count
     * @return the text, {@code n/a} for NaN
     */
    static String count(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
    }

    /**
     * Formats milliseconds with one decimal, such as {@code 2,512.3}.
     * @param value the milliseconds
     * @return the text, {@code n/a} for NaN
     */
    static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.1f", value);
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (Math.abs(value) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
