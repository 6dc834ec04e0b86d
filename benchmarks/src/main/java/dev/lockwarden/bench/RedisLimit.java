package dev.lockwarden.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    private RedisLimit() {
    }

    static Result measure(String binary, int port, int clients, int requests, long timeoutSeconds)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(binary, "-h", "127.0.0.1", "-p", Integer.toString(port), "-c",
                Integer.toString(clients), "-n", Integer.toString(requests), "-q", "-t", "set,get")
                .redirectErrorStream(true).start();
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
