package dev.lockwarden.cdi;

import dev.lockwarden.config.Settings;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * {@code lockwarden.*} from MicroProfile Config (which itself covers system properties and the
 * environment); the {@code LOCKWARDEN_*} environment stays as the last fallback. Loaded only when
 * the MicroProfile Config API is present.
 */
final class MicroProfileSettings {

    private MicroProfileSettings() {}

    static Settings create() {
        Config config = ConfigProvider.getConfig();
        return new Settings(name -> config.getOptionalValue(name, String.class).orElse(null), System.getenv());
    }
}
