package dev.lockwarden.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.model.OsArchitecture;

/**
 * Locates a {@code redis-server} executable for tests.
 *
 * <p>{@link #detect()} resolves, in order: the system property {@value #SERVER_PROPERTY} (a path, or
 * {@code embedded} to force the bundled binary), {@code redis-server} on {@code PATH} (plus
 * {@code /usr/bin} and {@code /usr/local/bin}), and finally the Redis 6.2 binary shipped inside the
 * {@code com.github.codemonstur:embedded-redis} jar, extracted once per JVM to a temp file.
 */
public final class RedisBinary {

    /** System property overriding detection: a path to {@code redis-server}, or {@code embedded}. */
    public static final String SERVER_PROPERTY = "lockwarden.redis.server";

    /** What the fallback to the embedded binary tells the user, once per JVM. */
    static final String FALLBACK_NOTICE =
            "redis-server is not installed: using the Redis 6.2 binary inside embedded-redis"
                    + " (for the Redis your servers run, install it: sudo apt-get install -y redis-server)";

    private static final System.Logger LOG = System.getLogger(RedisBinary.class.getName());
    private static final Pattern VERSION = Pattern.compile("v=(\\d+(?:\\.\\d+)*)");

    private static RedisBinary detected;
    private static RedisBinary embedded;

    private final Path path;
    private final boolean isEmbedded;
    private volatile String version;

    private RedisBinary(Path path, boolean isEmbedded) {
        this.path = path;
        this.isEmbedded = isEmbedded;
    }

    /** {@return the binary tests should use: property override, then {@code PATH}, then the embedded one. Cached} */
    public static synchronized RedisBinary detect() {
        if (detected == null) {
            String override = System.getProperty(SERVER_PROPERTY, "").trim();
            if (override.equalsIgnoreCase("embedded")) {
                detected = embedded();
            } else if (!override.isEmpty()) {
                detected = of(Path.of(override));
            } else {
                detected = onPath().orElseGet(() -> {
                    LOG.log(System.Logger.Level.INFO, FALLBACK_NOTICE);
                    return embedded();
                });
            }
        }
        return detected;
    }

    /** {@return {@code redis-server} found on {@code PATH}, {@code /usr/bin} or {@code /usr/local/bin}, if any} */
    public static Optional<RedisBinary> onPath() {
        Set<String> dirs = new LinkedHashSet<>();
        String pathEnv = System.getenv("PATH");
        if (pathEnv != null) {
            dirs.addAll(List.of(pathEnv.split(java.io.File.pathSeparator)));
        }
        dirs.add("/usr/bin");
        dirs.add("/usr/local/bin");
        for (String dir : dirs) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Path.of(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(new RedisBinary(candidate.toAbsolutePath(), false));
            }
        }
        return Optional.empty();
    }

    /** {@return the binary bundled in the embedded-redis jar (Redis 6.2), extracted to a temp file once per JVM} */
    public static synchronized RedisBinary embedded() {
        if (embedded == null) {
            embedded = new RedisBinary(extractEmbedded(), true);
        }
        return embedded;
    }

    /**
     * {@return a specific executable}
     *
     * @param executable the path of a {@code redis-server} executable
     */
    public static RedisBinary of(Path executable) {
        Objects.requireNonNull(executable, "executable");
        if (!Files.isExecutable(executable)) {
            throw new IllegalArgumentException("not an executable redis-server: " + executable);
        }
        return new RedisBinary(executable.toAbsolutePath(), false);
    }

    private static Path extractEmbedded() {
        // The jar's own OS/arch -> resource map, e.g. "/redis-server-6.2.6-v5-linux-amd64" on Linux x86_64
        // (the file name says 6.2.6, the binary reports 6.2.11).
        OsArchitecture platform = OsArchitecture.detectOSandArchitecture();
        String resource = ExecutableProvider.newProvidedVersionsMap().get(platform);
        if (resource == null) {
            throw new IllegalStateException(
                    "embedded-redis ships no redis-server for " + platform.os + "/" + platform.arch);
        }
        try (InputStream in = ExecutableProvider.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " missing from the embedded-redis jar");
            }
            Path dir = Files.createTempDirectory("lockwarden-redis-bin-");
            dir.toFile().deleteOnExit(); // deleteOnExit runs in reverse order: the file goes first
            Path target = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            if (!target.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("cannot chmod +x " + target);
            }
            target.toFile().deleteOnExit();
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract embedded redis-server " + resource, e);
        }
    }

    /** {@return absolute path of the executable} */
    public Path path() {
        return path;
    }

    /** {@return whether this is the binary extracted from the embedded-redis jar} */
    public boolean isEmbedded() {
        return isEmbedded;
    }

    /** {@return server version reported by {@code redis-server --version}, e.g. {@code 7.0.15}; cached} */
    public String version() {
        String v = version;
        if (v == null) {
            version = v = readVersion();
        }
        return v;
    }

    /** {@return major version, e.g. 7 for 7.0.15} */
    public int majorVersion() {
        String v = version();
        int dot = v.indexOf('.');
        return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
    }

    private String readVersion() {
        List<String> cmd = new ArrayList<>(List.of(path.toString(), "--version"));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(path + " --version did not finish within 10 s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = VERSION.matcher(out);
            if (!m.find()) {
                throw new IllegalStateException("unexpected output of " + path + " --version: " + out);
            }
            return m.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + path + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the redis-server version", e);
        }
    }

    @Override
    public String toString() {
        return "redis-server " + path + (isEmbedded ? " (embedded)" : "");
    }
}
