package dev.lockwarden.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Redis limit: {@code redis-benchmark -c C -n N -q -t set,get} on the same server. A lock cycle
 * needs two sequential round trips (acquire, release), so the limit is one SET plus one GET:
 * {@code 1 / (1/setRps + 1/getRps)} cycles per second per connection.
 */
final class RedisLimit {
    private static final Pattern LINE = Pattern.compile("(SET|GET): ([0-9.]+) requests per second");

    /**
     * @param setRps SET requests/s
     * @param getRps GET requests/s
     */
    record Result(double setRps, double getRps) {
        double cycles() {
            return setRps <= 0 || getRps <= 0 ? 0 : 1 / (1 / setRps + 1 / getRps);
        }
    }

    /** What the report says instead of the limit rows when {@code redis-benchmark} is not installed. */
    static final String MISSING = "The Redis limit rows are left out: `redis-benchmark` is not installed "
            + "(Debian/Ubuntu: `sudo apt-get install -y redis-tools`; or point `-Dbench.redis-benchmark=` at one).";

    private RedisLimit() {}

    /**
     * The {@code redis-benchmark} to run: {@code configured} if it is a path to an executable, else that
     * name looked up on {@code PATH} (then {@code /usr/bin}, {@code /usr/local/bin}); empty when there is none.
     */
    static Optional<Path> locate(String configured) {
        String v = configured == null ? "" : configured.trim();
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (v.contains(File.separator)) {
            Path p = Path.of(v);
            return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        Set<String> dirs = new LinkedHashSet<>(
                List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.add("/usr/bin");
        dirs.add("/usr/local/bin");
        for (String dir : dirs) {
            Path p = dir.isBlank() ? null : Path.of(dir, v);
            if (p != null && Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    static Result measure(String binary, int port, int clients, int requests, long timeoutSeconds)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        binary,
                        "-h",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-c",
                        Integer.toString(clients),
                        "-n",
                        Integer.toString(requests),
                        "-q",
                        "-t",
                        "set,get")
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(0, 0);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        double set = 0;
        double get = 0;
        Matcher m = LINE.matcher(out);
        while (m.find()) {
            if (m.group(1).equals("SET")) {
                set = Double.parseDouble(m.group(2));
            } else {
                get = Double.parseDouble(m.group(2));
            }
        }
        return new Result(set, get);
    }
}
