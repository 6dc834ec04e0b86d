package dev.lockwarden.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written as {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 7d} or ISO-8601 ({@code PT30S}). */
public final class Durations {
    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private Durations() {}

    /**
     * @param text  the value
     * @param where where the value came from (e.g. "system property lockwarden.ttl"), for the error message
     * @return the duration
     * @throws IllegalArgumentException naming {@code where}, the value and the accepted forms
     */
    public static Duration parse(String text, String where) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(
                    where + " is blank: write a duration such as 500ms, 30s, 2m, 1h, 7d or PT30S");
        }
        String t = text.trim();
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            long n;
            try {
                n = Long.parseLong(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + " = '" + text + "' is too large");
            }
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    where + " = '" + text + "' is not a duration: write e.g. 500ms, 30s, 2m, 1h, 7d or PT30S");
        }
    }
}
