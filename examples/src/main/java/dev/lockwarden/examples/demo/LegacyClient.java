package dev.lockwarden.examples.demo;

import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The legacy app's users: one new payment {@code WEB-n} after another ({@link #PAUSE} apart), POSTed
 * {@link #AT_ONCE} times at once (a retry storm). Under the agent one request charges it; the others wait for the lock and answer
 * "already charged". Bounded by {@link #MAX_ROUNDS} and the demo's run time.
 */
final class LegacyClient implements AutoCloseable {
    static final int AT_ONCE = 3;
    static final Duration PAUSE = Duration.ofSeconds(1);
    private static final int MAX_ROUNDS = 10_000;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Thread thread;

    LegacyClient(int port, Duration maxTime, PrintStream console) {
        thread = new Thread(() -> run(port, maxTime, console), "legacy-client");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run(int port, Duration maxTime, PrintStream console) {
        long end = System.nanoTime() + maxTime.toNanos();
        for (int round = 1;
                round <= MAX_ROUNDS
                        && System.nanoTime() < end
                        && !Thread.currentThread().isInterrupted();
                round++) {
            String id = "WEB-" + round;
            HttpRequest post = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/pay?id=" + id))
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            List<CompletableFuture<String>> calls = new ArrayList<>();
            for (int i = 0; i < AT_ONCE; i++) {
                calls.add(http.sendAsync(post, HttpResponse.BodyHandlers.ofString())
                        .thenApply(r -> r.statusCode() == 200 ? r.body() : "HTTP " + r.statusCode())
                        .exceptionally(e -> "failed: " + e.getCause()));
            }
            try {
                List<String> answers = new ArrayList<>();
                for (CompletableFuture<String> c : calls) {
                    answers.add(c.get());
                }
                console.println("[legacy-client] POST /pay?id=" + id + " x" + AT_ONCE + " at once -> "
                        + String.join(", ", answers));
                Thread.sleep(PAUSE.toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                console.println("[legacy-client] " + e.getCause());
            }
        }
    }

    /** Stops sending; waits briefly for the round in flight. */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
