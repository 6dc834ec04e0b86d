package dev.lockwarden.store;

import java.time.Duration;
import javax.net.ssl.SSLSocketFactory;

/**
 * How clients connect to Redis.
 *
 * @param timeout          connect and socket timeout of every command
 * @param maxConnections   pool size per node
 * @param sslSocketFactory trust/keys for {@code rediss://} URIs; null = the JVM's default
 */
public record ConnectionSettings(Duration timeout, int maxConnections, SSLSocketFactory sslSocketFactory) {
    public ConnectionSettings {
        if (timeout == null || timeout.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "Redis timeout " + timeout + " must be at least 1 ms, e.g. Duration.ofSeconds(2)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections " + maxConnections + " must be at least 1");
        }
    }

    /** Settings with the JVM's default TLS trust. */
    public ConnectionSettings(Duration timeout, int maxConnections) {
        this(timeout, maxConnections, null);
    }
}
