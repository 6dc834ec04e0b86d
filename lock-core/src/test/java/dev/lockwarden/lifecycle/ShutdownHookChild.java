package dev.lockwarden.lifecycle;

import dev.lockwarden.LockManager;
import dev.lockwarden.LockOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Child JVM for {@link ShutdownHookTest}: takes locks and exits without closing its manager.
 * Args: {@code uri shutdownHook(true|false) name...}. Prints {@code HELD}, waits for a line on stdin, exits.
 */
public final class ShutdownHookChild {
    public static void main(String[] args) throws Exception {
        LockManager locks = LockManager.builder()
                .redis(args[0])
                .application("child")
                .timeout(Duration.ofMillis(500))
                .shutdownHook(Boolean.parseBoolean(args[1]))
                .build();
        for (int i = 2; i < args.length; i++) {
            locks.acquire(args[i], LockOptions.ttl(Duration.ofSeconds(60)));
        }
        System.out.println("HELD");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        System.exit(0); // no close(): only the shutdown hook can give the locks back
    }
}
