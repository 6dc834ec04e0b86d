package dev.lockwarden.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Start-up help: on a daemon thread, loads and links — never initialises — the bundled library classes (Byte Buddy,
 * lock-core; {@code dev.lockwarden.agent.shaded.*} only) that the agent's start-up path (config check, class-file
 * pre-check, install, first weave) will need, listed in {@value #LIST}, so that reading, inflating, parsing and
 * verifying them runs on the second core while the main thread works. Never the agent's own classes: verifying them
 * would load the bootstrap bridge from the agent jar before it is injected into the boot loader. Loading without
 * initialising runs no static initialiser, so it cannot deadlock with the main thread (no class-initialisation
 * locks; the loader locks per class name and superclasses form no cycle). Any failure only loses the speed-up; the
 * main thread loads what it needs itself. Bounded by the list and by {@value #BUDGET_MILLIS} ms.
 */
final class Preloader {
    static final String LIST = "dev/lockwarden/agent/preload.txt";
    private static final String SHADED = "dev.lockwarden.agent.shaded.";
    private static final long BUDGET_MILLIS = 5_000;
    private static final int MAX_CLASSES = 5_000;

    private Preloader() {
    }

    /** Starts the thread, unless {@code -Dlockwarden.agent.preload=false}. */
    static void start() {
        if ("false".equalsIgnoreCase(System.getProperty("lockwarden.agent.preload"))) {
            return;
        }
        Thread t = new Thread(Preloader::run, "lockwarden-agent-preload");
        t.setDaemon(true);
        t.start();
    }

    private static void run() {
        ClassLoader loader = Preloader.class.getClassLoader();
        long deadline = System.nanoTime() + BUDGET_MILLIS * 1_000_000;
        try (InputStream in = loader.getResourceAsStream(LIST)) {
            if (in == null) {
                return;
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int n = 0;
            for (String line; (line = lines.readLine()) != null && n < MAX_CLASSES && System.nanoTime() < deadline; n++) {
                if (line.startsWith(SHADED)) {
                    try {
                        // asking for the constructors links (verifies) the class too, still without initialising it
                        Class.forName(line, false, loader).getDeclaredConstructors();
                    } catch (ClassNotFoundException | LinkageError ignored) {
                        // only the speed-up is lost; ShadedJarIT keeps the list current
                    }
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // as above
        }
    }
}
