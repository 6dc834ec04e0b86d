package dev.lockwarden.cdi;

import dev.lockwarden.config.Settings;

/**
 * Where the default producer reads {@code lockwarden.*}: MicroProfile Config when its API is on the
 * class path (so {@code microprofile-config.properties}, server config sources and profiles work),
 * else system properties, then environment variables.
 */
final class SettingsSource {
    private static final String MP_CONFIG = "org.eclipse.microprofile.config.ConfigProvider";

    private SettingsSource() {}

    static Settings discover() {
        if (isPresent(MP_CONFIG)) {
            return MicroProfileSettings.create();
        }
        return Settings.fromSystem();
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, SettingsSource.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
