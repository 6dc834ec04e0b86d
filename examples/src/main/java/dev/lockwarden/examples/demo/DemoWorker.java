package dev.lockwarden.examples.demo;

import dev.lockwarden.LockManager;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One worker JVM of the live demo: runs its roles, each on a thread, until its standard input
 * ends (the launcher stopped or died: a worker never outlives it), {@code --max-time} passes, or
 * it is killed.
 */
@Command(name = "demo-worker", mixinStandardHelpOptions = true, description = "A worker JVM of ./demo.")
public final class DemoWorker implements Callable<Integer> {
    /** The roles a worker can play. */
    enum RoleName {
        payments,
        cron,
        checkout,
        stock,
        stuck
    }

    @Option(names = "--name", required = true, description = "shown on the dashboard as the application")
    String name;

    @Option(names = "--redis", required = true, description = "redis://host:port")
    String redis;

    @Option(names = "--roles", required = true, split = ",", description = "any of: ${COMPLETION-CANDIDATES}")
    List<RoleName> roles;

    @Option(names = "--max-time", description = "stop after this long (default: ${DEFAULT-VALUE})")
    Duration maxTime = Duration.ofHours(2);

    public static void main(String[] args) {
        Logger.getLogger("").setLevel(Level.WARNING); // Weld's start-up INFO lines are noise here
        System.exit(new CommandLine(new DemoWorker()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (LockManager locks =
                LockManager.builder().redis(redis).application(name).build()) {
            List<Role> started = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            try {
                for (RoleName r : roles) {
                    Role role = create(r, locks);
                    started.add(role);
                    Thread t = new Thread(() -> runRole(role, r, out), name + "-" + r);
                    t.setDaemon(true);
                    threads.add(t);
                }
                threads.forEach(Thread::start);
                out.println("worker " + name + " started: " + roles);
                awaitStdinEnd(maxTime);
            } finally {
                threads.forEach(Thread::interrupt);
                for (Thread t : threads) {
                    t.join(2000);
                }
                started.forEach(Role::close);
            }
        }
        return 0;
    }

    private Role create(RoleName role, LockManager locks) {
        return switch (role) {
            case payments -> new PaymentsRole(redis, name);
            case cron -> new CronRole(locks, name);
            case checkout -> new CheckoutRole(locks);
            case stock -> new StockRole(locks, redis);
            case stuck -> new StuckRole(locks);
        };
    }

    private static void runRole(Role role, RoleName name, PrintStream out) {
        try {
            role.run(out::println);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!Thread.currentThread().isInterrupted()) {
                out.println(name + ": failed: " + e);
            }
        }
    }

    /** Blocks until stdin reaches end of file or {@code max} passes. */
    private static void awaitStdinEnd(Duration max) throws InterruptedException {
        Thread reader = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // nothing is sent: only the end matters
                        }
                    } catch (IOException ignored) {
                        // closed: the launcher is gone
                    }
                },
                "stdin-watch");
        reader.setDaemon(true);
        reader.start();
        reader.join(max.toMillis());
    }
}
