package dev.lockwarden.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.Optional;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Turns the {@code lockwarden.tls.*} settings (trust store for the server's CA, key store with the
 * client certificate) into an {@link SSLSocketFactory} with the JDK's key and trust manager factories.
 * A store that is not set falls back to the JVM's default for that half. Passwords are only handed to
 * {@link KeyStore}; no message names their value.
 */
public final class TlsSettings {
    /** Trust store with the CA of the Redis servers. */
    public static final String TRUST_STORE = Settings.TLS_TRUST_STORE;
    /** Password of the trust store. */
    public static final String TRUST_STORE_PASSWORD = Settings.TLS_TRUST_STORE_PASSWORD;
    /** Type of the trust store. */
    public static final String TRUST_STORE_TYPE = Settings.TLS_TRUST_STORE_TYPE;
    /** Key store with the client's key (mutual TLS). */
    public static final String KEY_STORE = Settings.TLS_KEY_STORE;
    /** Password of the key store. */
    public static final String KEY_STORE_PASSWORD = Settings.TLS_KEY_STORE_PASSWORD;
    /** Type of the key store. */
    public static final String KEY_STORE_TYPE = Settings.TLS_KEY_STORE_TYPE;

    static final String DEFAULT_TYPE = "PKCS12";

    private TlsSettings() {}

    /**
     * The socket factory the settings describe, or empty when no {@code lockwarden.tls.*} store is set.
     *
     * @param settings where the {@code lockwarden.tls.*} values come from
     * @return the factory, or empty
     * @throws IllegalArgumentException a store is missing, unreadable, of the wrong type or its password
     *                                  is wrong (the message names the setting and the fix)
     */
    public static Optional<SSLSocketFactory> socketFactory(Settings settings) {
        Optional<Settings.Source> trust = settings.raw(TRUST_STORE);
        Optional<Settings.Source> keys = settings.raw(KEY_STORE);
        if (trust.isEmpty() && keys.isEmpty()) {
            if (settings.raw(TRUST_STORE_PASSWORD).isPresent()
                    || settings.raw(KEY_STORE_PASSWORD).isPresent()) {
                throw new IllegalArgumentException("a lockwarden.tls.*-password is set but neither " + TRUST_STORE
                        + " nor " + KEY_STORE + ": set the store's path too, or remove the password");
            }
            return Optional.empty();
        }
        try {
            KeyManager[] km = null;
            if (keys.isPresent()) {
                char[] password = password(settings, KEY_STORE_PASSWORD, keys.get());
                KeyStore ks = load(keys.get(), settings, KEY_STORE_PASSWORD, KEY_STORE_TYPE, password);
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                try {
                    kmf.init(ks, password);
                } catch (UnrecoverableKeyException e) {
                    throw new IllegalArgumentException(
                            "the private key in " + describe(keys.get())
                                    + " cannot be read with " + KEY_STORE_PASSWORD
                                    + ": the key's password must equal the store's password",
                            e);
                }
                km = kmf.getKeyManagers();
            }
            TrustManager[] tm = null;
            if (trust.isPresent()) {
                char[] password = settings.raw(TRUST_STORE_PASSWORD)
                        .map(s -> s.value().toCharArray())
                        .orElse(null);
                KeyStore ts = load(trust.get(), settings, TRUST_STORE_PASSWORD, TRUST_STORE_TYPE, password);
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(ts);
                tm = tmf.getTrustManagers();
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(km, tm, null);
            return Optional.of(ctx.getSocketFactory());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot set up TLS from the lockwarden.tls.* settings: "
                            + e.getClass().getSimpleName(),
                    e);
        }
    }

    private static char[] password(Settings settings, String property, Settings.Source store) {
        return settings.raw(property)
                .map(s -> s.value().toCharArray())
                .orElseThrow(() -> new IllegalArgumentException(describe(store) + " is set but " + property + " (env "
                        + Settings.envName(property) + ") is not: set the key store's password"));
    }

    private static KeyStore load(
            Settings.Source store, Settings settings, String passwordProperty, String typeProperty, char[] password) {
        String type = settings.string(typeProperty, DEFAULT_TYPE);
        KeyStore ks;
        try {
            ks = KeyStore.getInstance(type);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    typeProperty + " '" + type + "' is not a key store type of this JVM: use PKCS12 or JKS", e);
        }
        Path path = Path.of(store.value());
        try (InputStream in = Files.newInputStream(path)) {
            ks.load(in, password);
            return ks;
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(describe(store) + ": no such file, fix the path", e);
        } catch (IOException | GeneralSecurityException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw new IllegalArgumentException(
                        "the password in " + passwordProperty + " does not open " + describe(store)
                                + ": set that store's correct password",
                        e);
            }
            throw new IllegalArgumentException(
                    "cannot read " + describe(store) + " as a " + type + " store: check " + passwordProperty + ", and "
                            + typeProperty + " (PKCS12 or JKS)",
                    e);
        }
    }

    private static String describe(Settings.Source store) {
        return store.value() + " (" + store.where() + ")";
    }
}
