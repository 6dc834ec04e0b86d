package dev.lockwarden.examples.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The JVMs the launcher started: their output goes to the console prefixed with their name, and
 * {@link #stopAll} ends every one of them (SIGTERM, then SIGKILL after a grace period), including
 * anything they started.
 */
final class ChildProcesses {
    private final PrintStream console;
    private final List<Process> processes = new ArrayList<>();

    ChildProcesses(PrintStream console) {
        this.console = console;
    }

    /**
     * Starts {@code command}; lines matching {@code shown} are printed as {@code [name] line}. The
     * returned latch opens at the first line matching {@code ready}.
     */
    synchronized CountDownLatch start(
            String name, List<String> command, Predicate<String> shown, Predicate<String> ready) throws IOException {
        Process p =
                new ProcessBuilder(command).redirectErrorStream(true).start(); // stdin stays a pipe: EOF when we die
        processes.add(p);
        CountDownLatch readyLatch = new CountDownLatch(1);
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            if (ready.test(line)) {
                                readyLatch.countDown();
                            }
                            if (shown.test(line)) {
                                console.println("[" + name + "] " + line);
                            }
                        }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                },
                "out-" + name);
        pump.setDaemon(true);
        pump.start();
        return readyLatch;
    }

    /** Stops every process and its descendants; waits at most {@code grace} before killing. */
    synchronized void stopAll(Duration grace) {
        List<ProcessHandle> all = new ArrayList<>();
        for (Process p : processes) {
            p.descendants().forEach(all::add);
            all.add(p.toHandle());
        }
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception notYet) {
                h.destroyForcibly();
            }
        }
        for (ProcessHandle h : all) {
            try {
                h.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                console.println("could not stop pid " + h.pid() + ": kill it by hand");
            }
        }
        processes.clear();
    }
}
