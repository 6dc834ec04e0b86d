package com.acme.legacy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.RedisClient;

/**
 * A "legacy" application with no Lockwarden code: it talks to Redis through its own (unshaded)
 * Jedis. Modes:
 * <ul>
 *   <li>{@code counter HOST PORT THREADS ITERATIONS NAME} — concurrent read-modify-write increments</li>
 *   <li>{@code policies} — SKIP/FAIL behaviour while another thread holds a lock</li>
 *   <li>{@code plain} — calls a method once (used with a broken agent config); prints how the agent's bridge was injected</li>
 *   <li>{@code attach} — waits for a line on stdin (the test attaches the agent), then runs {@code policies}</li>
 *   <li>{@code plugins} — calls a method of a class defined by its own class loaders (isolating and delegating)</li>
 * </ul>
 */
public final class LegacyApp {
    private LegacyApp() {}

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "counter" ->
                counter(
                        args[1],
                        Integer.parseInt(args[2]),
                        Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]),
                        args[5]);
            case "policies" -> policies();
            case "plugins" -> plugins();
            case "matching" -> matching();
            case "drain" -> drain(Long.parseLong(args[1]));
            case "plain" ->
                System.out.println("PLAIN report=" + new Jobs().report("k") + " flag=" + new Jobs().flag("k")
                        + " bridge=" + System.getProperty("lockwarden.agent.bridge"));
            case "attach" -> {
                Jobs warmUp = new Jobs(); // loads the class before the agent arrives: attach must retransform it
                System.out.println("READY report=" + warmUp.report("warm"));
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
                policies();
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.out.println("DONE");
    }

    /** Holds a locked call for {@code millis} and waits to be terminated; a shutdown hook tries new calls. */
    private static void drain(long millis) throws Exception {
        Jobs jobs = new Jobs();
        Thread holder = new Thread(
                () -> {
                    try {
                        jobs.hold("d1", millis);
                        System.out.println("HOLD-DONE");
                    } catch (Throwable e) {
                        System.out.println("HOLD-FAILED " + e);
                    }
                },
                "holder");
        holder.start();
        jobs.holding.await();
        try {
            jobs.charge("d1");
            System.out.println("BUSY not detected");
        } catch (RuntimeException e) {
            System.out.println("BUSY " + e.getClass().getSimpleName());
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            long end = System.nanoTime() + 2_000_000_000L;
                            while (System.nanoTime() < end) {
                                try {
                                    jobs.report("d2");
                                    Thread.sleep(20);
                                } catch (InterruptedException e) {
                                    return;
                                } catch (RuntimeException e) {
                                    System.out.println("DRAIN-REJECTED " + e.getMessage());
                                    return;
                                }
                            }
                            System.out.println("DRAIN-NOT-REJECTED");
                        },
                        "app-shutdown"));
        System.out.println("WAITING");
        Thread.sleep(120_000);
    }

    private static void matching() throws Exception {
        Early.work();
        new com.acme.legacy.jobs.NightlyJob().run();
        new com.acme.legacy.jobs.NightlyJob().runOnce();
        new com.acme.legacy.jobs.NightlyJob().cleanup();
        new com.acme.legacy.jobs.WeeklyJob().run();
        System.out.println("JobHelper " + new com.acme.legacy.jobs.JobHelper().run());
        new com.acme.legacy.pay.CardHandler().handle(new com.acme.legacy.pay.PaymentRequest("P1", 100));
        new com.acme.legacy.pay.WireHandler().handle(new com.acme.legacy.pay.PaymentRequest("P2", 200));
        new Cron().tick();
        LockProbe.print("CRON after return", "cron:tick");
        Slow slow = new Slow();
        System.out.println("SLOW " + slow.logged("s1"));
        try {
            System.out.println("SLOW " + slow.thrown("s2"));
        } catch (RuntimeException e) {
            System.out.println("SLOW thrown threw " + e.getClass().getSimpleName());
        }
    }

    private static void plugins() throws Exception {
        for (ClassLoader loader : List.of(PluginLoaders.delegating(), PluginLoaders.isolating())) {
            Class<?> c = Class.forName("com.acme.legacy.plugin.Plugin", true, loader);
            Object plugin = c.getConstructor().newInstance();
            try {
                System.out.println("PLUGIN " + loader.getName() + " returned "
                        + c.getMethod("pay", String.class).invoke(plugin, "p1"));
            } catch (java.lang.reflect.InvocationTargetException e) {
                System.out.println("PLUGIN " + loader.getName() + " threw " + e.getCause());
            }
            System.out.println("PLUGIN " + loader.getName() + " bodyRuns="
                    + c.getField("bodyRuns").get(null));
        }
    }

    private static void counter(String host, int port, int threads, int iterations, String name) throws Exception {
        try (RedisClient redis = RedisClient.builder().hostAndPort(host, port).build()) {
            Counter counter = new Counter(redis);
            List<Thread> workers = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(
                        () -> {
                            try {
                                for (int i = 0; i < iterations; i++) {
                                    counter.increment(name);
                                }
                            } catch (Throwable e) {
                                synchronized (errors) {
                                    errors.add(e);
                                }
                            }
                        },
                        "worker-" + t);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join(60_000);
            }
            System.out.println("ERRORS " + errors.size() + (errors.isEmpty() ? "" : " first=" + errors.get(0)));
        }
    }

    private static void policies() throws Exception {
        // the host's own, unshaded Byte Buddy works next to the agent's relocated copy
        Class<?> generated = new net.bytebuddy.ByteBuddy()
                .subclass(Object.class)
                .name("com.acme.legacy.Generated")
                .make()
                .load(LegacyApp.class.getClassLoader())
                .getLoaded();
        System.out.println("HOST-BYTEBUDDY " + generated.getName());
        Jobs jobs = new Jobs();
        Thread holder = new Thread(
                () -> {
                    try {
                        jobs.hold("k1", 3000);
                    } catch (Throwable e) {
                        System.out.println("HOLD-FAILED " + e);
                    }
                },
                "holder");
        holder.start();
        if (!jobs.holding.await(20, java.util.concurrent.TimeUnit.SECONDS)) {
            System.out.println("NEVER-HELD");
        }
        int runsBefore = Jobs.BODY_RUNS.get();
        System.out.println("SKIPPED report=" + jobs.report("k1") + " flag=" + jobs.flag("k1")
                + " label=" + Jobs.label("k1") + " named=" + jobs.named("k1")
                + " bodyRuns=" + (Jobs.BODY_RUNS.get() - runsBefore));
        System.out.println("FREE-KEY report=" + jobs.report("k2"));
        try {
            jobs.charge("k1");
            System.out.println("CHARGE ran");
        } catch (RuntimeException e) {
            System.out.println("CHARGE threw " + e.getClass().getName() + ": " + e.getMessage());
        }
        System.out.println("MISNAMED " + jobs.misnamed("k1"));
        try {
            jobs.fails("k3");
        } catch (IllegalStateException e) {
            System.out.println("FAILS threw " + e.getMessage());
        }
        holder.join(20_000);
        System.out.println("AFTER report=" + jobs.report("k1") + " fails-again=" + failsAgain(jobs));
    }

    /** The lock of {@code fails} must have been released although the body threw. */
    private static String failsAgain(Jobs jobs) {
        try {
            jobs.fails("k3");
            return "no-exception";
        } catch (IllegalStateException e) {
            return "body";
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName();
        }
    }
}
