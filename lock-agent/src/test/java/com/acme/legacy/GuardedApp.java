package com.acme.legacy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Calls {@link Guarded#pay}: mode {@code call} once; mode {@code attach} once before the agent arrives (the class is
 * loaded), then waits for a line on stdin and calls it again, printing {@code RESULT} or {@code FAILED}; mode
 * {@code hold MILLIS} calls {@link Guarded#hold} and prints how it ended and after how long; mode {@code late} as
 * {@code attach}, then (without exiting on a failure) loads {@link Early} — a class no earlier step loaded — and
 * calls it.
 */
public final class GuardedApp {
    private GuardedApp() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("hold")) {
            long start = System.nanoTime();
            String outcome;
            try {
                outcome = "RETURNED " + Guarded.hold("h1", Long.parseLong(args[1]));
            } catch (Exception e) {
                outcome = "FAILED " + e + " suppressed=" + java.util.Arrays.toString(e.getSuppressed());
            }
            System.out.println(outcome + " after=" + (System.nanoTime() - start) / 1_000_000 + " interrupted="
                    + Thread.currentThread().isInterrupted());
            return;
        }
        if (args[0].equals("late")) {
            System.out.println("READY " + Guarded.pay("warm"));
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            try {
                System.out.println("RESULT " + Guarded.pay("p1"));
            } catch (RuntimeException | LinkageError e) {
                System.out.println("FAILED " + (e.getCause() != null ? e.getCause() : e));
            }
            try {
                // by reflection: nothing before this line loads the class
                Class.forName("com.acme.legacy.Early").getMethod("work").invoke(null);
                System.out.println("LATE RAN");
            } catch (java.lang.reflect.InvocationTargetException e) {
                System.out.println("LATE FAILED " + e.getCause());
            }
            return;
        }
        if (args[0].equals("attach")) {
            System.out.println("READY " + Guarded.pay("warm"));
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
        try {
            System.out.println("RESULT " + Guarded.pay("p1"));
        } catch (RuntimeException | LinkageError e) {
            Throwable root = e.getCause() != null ? e.getCause() : e;
            System.out.println("FAILED " + root);
            System.exit(3);
        }
    }
}
