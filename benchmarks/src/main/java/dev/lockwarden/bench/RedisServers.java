package dev.lockwarden.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import redis.clients.jedis.Jedis;

/** Starts throw-away {@code redis-server} processes on free loopback ports and stops them. */
final class RedisServers implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();
    private final String binary;
    private final Path dir;

    RedisServers(String binary) throws IOException {
        this.binary = binary;
        this.dir = Files.createTempDirectory("lockwarden-bench");
        // also stop them when the JVM is killed by benchmarks/run's timeout (SIGTERM)
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "bench-redis-stop"));
    }

    /** Starts one server bound to 127.0.0.1 only, without persistence; returns its port. */
    int start() throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            Process p = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--protected-mode", "yes", "--dir", dir.toString(),
                    "--maxclients", "1000")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis-" + port + ".log").toFile())
                    .start();
            if (awaitPing(port, p)) {
                processes.add(p);
                ports.add(port);
                return port;
            }
            p.destroyForcibly();
        }
        throw new IOException("could not start " + binary + " (see logs in " + dir + "); is redis-server installed?");
    }

    List<Integer> ports() {
        return List.copyOf(ports);
    }

    private static boolean awaitPing(int port, Process p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline && p.isAlive()) {
            try (Jedis j = new Jedis("127.0.0.1", port, 500)) {
                if ("PONG".equals(j.ping())) {
                    return true;
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(10);
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    @Override
    public synchronized void close() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(3, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
