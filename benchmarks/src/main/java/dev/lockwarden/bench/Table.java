package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Markdown table. */
final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "" : c.toString());
        }
        while (r.size() < headers.size()) {
            r.add("");
        }
        rows.add(r);
        return this;
    }

    /** A row for a contender that could not run: its name and the reason in the second column. */
    Table unavailable(String name, String reason) {
        return row(name, reason);
    }

    String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", headers)).append(" |\n");
        sb.append("|").append("---|".repeat(headers.size())).append('\n');
        for (List<String> r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }

    static String num(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String ratio(double v, double base) {
        return base <= 0 || v <= 0 ? "–" : String.format(Locale.ROOT, "%.2f×", v / base);
    }
}
