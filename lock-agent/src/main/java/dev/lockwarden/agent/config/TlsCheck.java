package dev.lockwarden.agent.config;

import java.util.Map;
import java.util.Optional;

import dev.lockwarden.config.Settings;
import dev.lockwarden.config.TlsSettings;

/**
 * Opens the {@code tls.*} stores a config file names while the file is checked, so a wrong path, type or password
 * stops the start (fail closed, with the line) instead of failing the first locked call. Uses lock-core's
 * {@link TlsSettings}, whose messages never contain a password; values from the file are named by their line.
 */
final class TlsCheck {
    private TlsCheck() {
    }

    /** The problem, if the file sets any {@code tls.*} line and the stores cannot be opened. */
    static Optional<String> check(String file, Map<String, String> fileSettings, Map<String, Integer> lines) {
        Integer first = lines.entrySet().stream().filter(e -> e.getKey().startsWith("lockwarden.tls."))
                .map(Map.Entry::getValue).min(Integer::compare).orElse(null);
        if (first == null) {
            return Optional.empty();
        }
        Settings settings = new Settings(name -> fileSettings.getOrDefault(name, System.getProperty(name)), System.getenv());
        try {
            TlsSettings.socketFactory(settings);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int line = first;
            for (Map.Entry<String, Integer> l : lines.entrySet()) {
                String where = "system property " + l.getKey();
                if (l.getKey().startsWith("lockwarden.tls.") && message.contains(where)) {
                    // Settings names every non-environment value a system property; here it came from the file
                    message = message.replace(where, file + ":" + l.getValue() + " " + l.getKey().substring("lockwarden.".length()));
                    line = l.getValue();
                }
            }
            return Optional.of(file + ":" + line + ": " + message + " (TLS stores are opened when the config is read)");
        }
    }
}
