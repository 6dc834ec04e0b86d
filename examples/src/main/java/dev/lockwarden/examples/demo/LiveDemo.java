package dev.lockwarden.examples.demo;

import dev.lockwarden.examples.DemoRedis;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./demo}: Redis, the dashboard, four worker JVMs and the legacy web app under the agent competing for
 * locks, on loopback, until Ctrl-C; then every process it started is stopped and its temp dir removed.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Live demo: Redis + dashboard + worker JVMs competing for locks. Ctrl-C stops everything.")
public final class LiveDemo implements Callable<Integer> {
    /** The workers: name and roles. Payments, cron and stock run on two or more JVMs, so they compete. */
    static final List<String[]> WORKERS = List.of(
            new String[] {"worker-1", "payments,cron,stock"},
            new String[] {"worker-2", "payments,cron,stock"},
            new String[] {"worker-3", "checkout,cron"},
            new String[] {"worker-4", "stuck"});

    @Option(
            names = "--port",
            description = "dashboard port (default: ${DEFAULT-VALUE}, or a free one if taken; 0 = a free one)")
    int port = 8080;

    @Option(names = "--admin-ui", description = "admin-ui build output (default: ${DEFAULT-VALUE})")
    Path adminTarget = Path.of("admin-ui", "target");

    @Option(names = "--agent-jar", description = "the shaded agent (default: ${DEFAULT-VALUE})")
    Path agentJar = Path.of("lock-agent", "target", "lock-agent.jar");

    @Option(names = "--legacy-app", description = "the legacy web app's runnable jar (default: ${DEFAULT-VALUE})")
    Path legacyApp = Path.of("examples", "legacy-app", "target", "legacy-app", "server", "legacy-app.jar");

    @Option(names = "--agent-config", description = "the agent's config for it (default: ${DEFAULT-VALUE})")
    Path agentConfig = Path.of("examples", "legacy-app", "lockwarden-agent.conf");

    @Option(names = "--no-dashboard", description = "run without the dashboard")
    boolean noDashboard;

    @Option(names = "--max-time", description = "stop by itself after this long (default: ${DEFAULT-VALUE})")
    Duration maxTime = Duration.ofHours(2);

    private final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    private final AtomicBoolean stopped = new AtomicBoolean();
    private ChildProcesses children;
    private LegacyClient legacyClient;
    private DemoRedis redis;
    private LedgerServer ledger;
    private Path tmp;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LiveDemo()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        tmp = Files.createTempDirectory("lockwarden-demo-");
        children = new ChildProcesses(out);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "demo-stop"));
        try {
            LegacyWorker legacy = new LegacyWorker(agentJar, legacyApp, agentConfig); // checked before anything starts
            redis = DemoRedis.start();
            out.println("Redis: " + redis.describe());
            ledger = LedgerServer.start(tmp, freeOr(0));
            String java = ProcessHandle.current().info().command().orElse("java");
            String login = noDashboard ? "" : startDashboard(java);
            for (String[] w : WORKERS) {
                children.start(w[0], workerCommand(java, w[0], w[1]), line -> true, line -> true);
            }
            startLegacyApp(java, legacy);
            out.println();
            out.println("=== Lockwarden demo running: " + WORKERS.size()
                    + " worker JVMs compete for payment:*, cron:*, stock:*, checkout:* locks;");
            out.println("    the legacy web app under -javaagent (holder '" + LegacyWorker.APPLICATION
                    + "') takes payment:WEB-* for " + LegacyClient.AT_ONCE
                    + " simultaneous POSTs per payment and charges each once");
            if (!noDashboard) {
                out.println(login);
                out.println(
                        "    On the dashboard, force-release '" + StuckRole.LOCK + "' (held by worker-4, which hangs)");
                out.println("    and watch [worker-4] report the loss. Ctrl-C stops everything.");
            }
            out.println("=== Ctrl-C to stop");
            Thread.sleep(maxTime.toMillis());
            return 0;
        } catch (InterruptedException e) {
            return 0;
        } catch (RuntimeException e) {
            out.println("demo: " + e.getMessage());
            return 1;
        }
    }

    private String startDashboard(String java) throws Exception {
        int dashboardPort = freeOr(port);
        Dashboard dashboard = Dashboard.withNewOperator(tmp);
        List<String> cmd = dashboard.command(java, adminTarget, redis.uri(), dashboardPort, tmp);
        out.println("starting the dashboard (about 10 s)...");
        CountDownLatch ready = children.start(
                "dashboard",
                cmd,
                line -> line.contains("listening on") || line.contains("ERROR") || line.startsWith("lockwarden-admin:"),
                line -> line.contains("listening on"));
        if (!ready.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the dashboard did not start within 120 s");
        }
        return "=== Dashboard: http://127.0.0.1:" + dashboardPort + "/   login: " + Dashboard.USER + " / "
                + dashboard.password() + "   (generated for this run)";
    }

    private void startLegacyApp(String java, LegacyWorker legacy) throws Exception {
        int appPort = freeOr(0);
        CountDownLatch ready = children.start(
                "legacy-app",
                legacy.command(java, redis.uri(), appPort, tmp),
                LegacyWorker::shown,
                line -> line.startsWith("LISTENING"));
        if (!ready.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the legacy app did not start within 60 s");
        }
        out.println("=== Legacy app: http://127.0.0.1:" + appPort + "/pay?id=...  (POST; under -javaagent with "
                + agentConfig + ")");
        legacyClient = new LegacyClient(appPort, maxTime, out);
        legacyClient.start();
    }

    private List<String> workerCommand(String java, String name, String roles) {
        return new ArrayList<>(List.of(
                java,
                "-Xmx96m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Djava.io.tmpdir=" + tmp,
                "-Dpayments.jdbc=" + ledger.jdbcUrl(),
                "-cp",
                System.getProperty("java.class.path"),
                DemoWorker.class.getName(),
                "--name",
                name,
                "--redis",
                redis.uri(),
                "--roles",
                roles,
                "--max-time",
                maxTime.toString()));
    }

    /** Stops the workers, the dashboard, Redis, and removes the temp dir; once. */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        out.println("\nstopping: workers, legacy app, dashboard, Redis...");
        if (legacyClient != null) {
            legacyClient.close();
        }
        if (children != null) {
            children.stopAll(Duration.ofSeconds(10));
        }
        if (ledger != null) {
            ledger.close();
        }
        if (redis != null) {
            redis.close();
        }
        deleteTree(tmp);
        out.println("stopped; nothing left behind");
    }

    /** {@code preferred} if it is free on loopback (0: none), else a free port. */
    static int freeOr(int preferred) throws IOException {
        if (preferred != 0) {
            try (ServerSocket s = new ServerSocket(preferred, 1, InetAddress.getLoopbackAddress())) {
                return preferred;
            } catch (IOException taken) {
                // pick another
            }
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + dir + ": " + e);
        }
    }
}
