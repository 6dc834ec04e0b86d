package dev.lockwarden.agent.config;

import dev.lockwarden.config.Settings;
import dev.lockwarden.config.TlsSettings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Opens the {@code tls.*} stores while the config is checked, whether the file names them or
 * {@code -Dlockwarden.tls.*} / {@code LOCKWARDEN_TLS_*} do, so a wrong path, type or password stops the start (fail
 * closed, before {@code main}) instead of failing the first locked call. Uses lock-core's {@link TlsSettings}, whose
 * messages never contain a password; values from the file are named by their line, the others by their property or
 * environment variable.
 */
final class TlsCheck {
    private static final List<String> NAMES = List.of(
            TlsSettings.TRUST_STORE,
            TlsSettings.TRUST_STORE_PASSWORD,
            TlsSettings.TRUST_STORE_TYPE,
            TlsSettings.KEY_STORE,
            TlsSettings.KEY_STORE_PASSWORD,
            TlsSettings.KEY_STORE_TYPE);

    private TlsCheck() {}

    /** The problem, if any {@code tls.*} setting is given (file, system property or environment) and the stores cannot be opened. */
    static Optional<String> check(String file, Map<String, String> fileSettings, Map<String, Integer> lines) {
        return check(file, fileSettings, lines, System.getenv());
    }

    static Optional<String> check(
            String file,
            Map<String, String> fileSettings,
            Map<String, Integer> lines,
            Map<String, String> environment) {
        Settings settings = new Settings(new FileThenProperty(fileSettings), environment);
        // loops, not streams: this runs in premain (see RuleLine)
        Integer first = null;
        for (Map.Entry<String, Integer> e : lines.entrySet()) {
            if (e.getKey().startsWith("lockwarden.tls.") && (first == null || e.getValue() < first)) {
                first = e.getValue();
            }
        }
        boolean any = first != null;
        for (String n : NAMES) {
            any |= settings.raw(n).isPresent();
        }
        if (!any) {
            return Optional.empty();
        }
        try {
            TlsSettings.socketFactory(settings);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            Integer line = first;
            for (Map.Entry<String, Integer> l : lines.entrySet()) {
                String where = "system property " + l.getKey();
                if (l.getKey().startsWith("lockwarden.tls.") && message.contains(where)) {
                    // Settings names every non-environment value a system property; here it came from the file
                    message = message.replace(
                            where, file + ":" + l.getValue() + " " + l.getKey().substring("lockwarden.".length()));
                    line = l.getValue();
                }
            }
            return Optional.of((line == null ? file : file + ":" + line) + ": " + message
                    + " (TLS stores are opened when the agent starts)");
        }
    }

    /** A setting from the file, else the system property (a class rather than a lambda, see above). */
    private static final class FileThenProperty implements Function<String, String> {
        private final Map<String, String> fileSettings;

        FileThenProperty(Map<String, String> fileSettings) {
            this.fileSettings = fileSettings;
        }

        @Override
        public String apply(String name) {
            String v = fileSettings.get(name);
            return v != null || fileSettings.containsKey(name) ? v : System.getProperty(name);
        }
    }
}
