package dev.lockwarden.metrics;

import dev.lockwarden.config.Settings;
import java.util.Arrays;

/**
 * How lock metrics are published: the cap on distinct lock-name groups (one Micrometer series set per
 * group, so an unbounded number of groups would exhaust the metrics backend) and the distribution
 * statistics of the wait and hold timers. Read from {@code lockwarden.metrics.*} (see README "Observability").
 *
 * @param maxGroups   distinct groups counted per manager; further groups count as {@value LockMetrics#OTHER}
 * @param percentiles client-side percentiles of the wait/hold timers (each in (0, 1)); empty: none
 * @param histogram   whether the timers also publish a percentile histogram (aggregatable, e.g. Prometheus)
 */
public record MetricsConfig(int maxGroups, double[] percentiles, boolean histogram) {
    /** Setting: distinct lock-name groups counted per manager. */
    public static final String MAX_GROUPS = "lockwarden.metrics.max-groups";
    /** Setting: comma-separated timer percentiles, or {@code none}. */
    public static final String PERCENTILES = "lockwarden.metrics.percentiles";
    /** Setting: {@code true} to publish a percentile histogram. */
    public static final String HISTOGRAM = "lockwarden.metrics.histogram";
    /** Groups counted when {@link #MAX_GROUPS} is not set. */
    public static final int DEFAULT_MAX_GROUPS = 100;

    private static final double[] DEFAULT_PERCENTILES = {0.5, 0.95, 0.99};

    /**
     * Checks the cap and every percentile; keeps a copy of {@code percentiles}.
     *
     * @param maxGroups   distinct groups counted per manager (at least 1)
     * @param percentiles timer percentiles, each in (0, 1)
     * @param histogram   whether the timers publish a percentile histogram
     */
    public MetricsConfig {
        if (maxGroups < 1) {
            throw new IllegalArgumentException("metrics max-groups must be at least 1, was " + maxGroups);
        }
        percentiles = percentiles.clone();
        for (double p : percentiles) {
            if (!(p > 0 && p < 1)) {
                throw new IllegalArgumentException(
                        "metrics percentile " + p + " is outside (0, 1): use e.g. 0.5,0.95,0.99");
            }
        }
    }

    /** {@return 100 groups, percentiles 0.5/0.95/0.99, no histogram} */
    public static MetricsConfig defaults() {
        return new MetricsConfig(DEFAULT_MAX_GROUPS, DEFAULT_PERCENTILES, false);
    }

    /**
     * Reads the {@code lockwarden.metrics.*} settings (system properties, then environment).
     *
     * @param settings where to read them
     * @return the configuration, defaults for what is not set
     * @throws IllegalArgumentException for a bad value, naming where it came from and what to write
     */
    public static MetricsConfig from(Settings settings) {
        int max = settings.raw(MAX_GROUPS)
                .map(s -> {
                    try {
                        return Integer.parseInt(s.value());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(
                                s.where() + " = '" + s.value() + "' is not a whole number: use e.g. 100");
                    }
                })
                .orElse(DEFAULT_MAX_GROUPS);
        if (max < 1) {
            throw new IllegalArgumentException(
                    MAX_GROUPS + " = " + max + " must be at least 1 (default " + DEFAULT_MAX_GROUPS + ")");
        }
        double[] pct = settings.raw(PERCENTILES).map(s -> parsePercentiles(s)).orElse(DEFAULT_PERCENTILES);
        boolean hist = settings.raw(HISTOGRAM)
                .map(s -> switch (s.value().toLowerCase()) {
                    case "true" -> true;
                    case "false" -> false;
                    default ->
                        throw new IllegalArgumentException(s.where() + " = '" + s.value() + "': use true or false");
                })
                .orElse(false);
        return new MetricsConfig(max, pct, hist);
    }

    private static double[] parsePercentiles(Settings.Source s) {
        if (s.value().equalsIgnoreCase("none")) {
            return new double[0];
        }
        try {
            double[] out = Arrays.stream(s.value().split(","))
                    .map(String::trim)
                    .mapToDouble(Double::parseDouble)
                    .toArray();
            for (double p : out) {
                if (!(p > 0 && p < 1)) {
                    throw new NumberFormatException();
                }
            }
            return out;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s.where() + " = '" + s.value()
                    + "': use comma-separated fractions between 0 and 1, e.g. 0.5,0.95,0.99, or none");
        }
    }

    /** {@return a copy of the percentiles} */
    @Override
    public double[] percentiles() {
        return percentiles.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MetricsConfig c
                && c.maxGroups == maxGroups
                && c.histogram == histogram
                && Arrays.equals(c.percentiles, percentiles);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * maxGroups + Boolean.hashCode(histogram)) + Arrays.hashCode(percentiles);
    }

    @Override
    public String toString() {
        return "MetricsConfig[maxGroups=" + maxGroups + ", percentiles=" + Arrays.toString(percentiles) + ", histogram="
                + histogram + "]";
    }
}
