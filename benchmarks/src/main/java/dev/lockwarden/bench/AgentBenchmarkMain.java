package dev.lockwarden.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent-overhead benchmark (run with {@code benchmarks/run-agent}): (1) added time per call of an
 * agent-wrapped no-op vs {@code LockManager.acquire/close} around it, in one child JVM; (2) JVM
 * start-up time of a generated ~5,000-class application with and without {@code -javaagent}. Writes
 * the "Agent overhead" section of {@code docs/benchmarks.md}.
 *
 * <p>Settings (system properties): {@code bench.agent.jar} (required), {@code bench.agent.calls} per
 * round (5000), {@code bench.agent.rounds} (16: short rounds, so drift hits both paths alike), {@code bench.agent.classes} (5000),
 * {@code bench.agent.startups} runs per side (11), {@code bench.agent.parts} ({@code calls,startup}),
 * {@code bench.agent.baseline-jar} (an older agent jar timed beside, for before/after), {@code bench.out},
 * {@code bench.no-doc}.
 */
public final class AgentBenchmarkMain {
    private static final Pattern RESULT =
            Pattern.compile("RESULT mode=(\\w+) path=(\\w+) n=(\\d+) mean=([\\d.]+) p50=([\\d.]+) p99=([\\d.]+)");

    private AgentBenchmarkMain() {}

    /** Sizes of one run; every loop is bounded by these and by per-process timeouts. */
    record Config(Path agentJar, int calls, int rounds, int classes, int startups, String redisServer) {
        static Config fromSystem() {
            String jar = System.getProperty("bench.agent.jar");
            if (jar == null || !Files.isRegularFile(Path.of(jar))) {
                throw new IllegalArgumentException("-Dbench.agent.jar=" + jar + ": not a file; build the agent first: "
                        + "mvn -B -q -pl lock-agent -am package -DskipTests (gives lock-agent/target/lock-agent.jar)");
            }
            return new Config(
                    Path.of(jar),
                    Integer.getInteger("bench.agent.calls", 5_000),
                    Integer.getInteger("bench.agent.rounds", 16),
                    Integer.getInteger("bench.agent.classes", 5_000),
                    Integer.getInteger("bench.agent.startups", 11),
                    System.getProperty("bench.redis-server", "redis-server"));
        }
    }

    private static final Pattern PAIRED = Pattern.compile("PAIRED mode=(\\w+) n=(\\d+) mean=(-?[\\d.]+) lo=(-?[\\d.]+) "
            + "hi=(-?[\\d.]+) tmean=(-?[\\d.]+) tlo=(-?[\\d.]+) thi=(-?[\\d.]+) median=(-?[\\d.]+)");

    /** Paired differences agent − direct in µs: mean and 95 % interval, the same 1 %-trimmed, median. */
    record Paired(long n, double mean, double lo, double hi, double tmean, double tlo, double thi, double median) {}

    static Map<String, Paired> parsePaired(String output) {
        Map<String, Paired> m = new LinkedHashMap<>();
        Matcher x = PAIRED.matcher(output);
        while (x.find()) {
            m.put(
                    x.group(1),
                    new Paired(
                            Long.parseLong(x.group(2)),
                            Double.parseDouble(x.group(3)),
                            Double.parseDouble(x.group(4)),
                            Double.parseDouble(x.group(5)),
                            Double.parseDouble(x.group(6)),
                            Double.parseDouble(x.group(7)),
                            Double.parseDouble(x.group(8)),
                            Double.parseDouble(x.group(9))));
        }
        return m;
    }

    /** Per-call statistics in µs, from the child's RESULT line. */
    record CallStats(long n, double mean, double p50, double p99) {}

    public static void main(String[] args) throws Exception {
        Config cfg = Config.fromSystem();
        String section = run(cfg);
        System.out.println(section);
        if (!Boolean.getBoolean("bench.no-doc")) {
            Path out = Path.of(System.getProperty("bench.out", "docs/benchmarks.md"));
            DocWriter.writeSection(out, DocWriter.AGENT, section);
            Bench.progress("wrote " + out.toAbsolutePath());
        }
        System.exit(0);
    }

    /** Runs both parts; returns the section's Markdown. */
    static String run(Config cfg) throws Exception {
        long started = System.nanoTime();
        Path dir = Files.createTempDirectory("lockwarden-agentbench");
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "Run of %s, Java %s, %d CPUs, Redis from `%s` on loopback. %d calls per "
                        + "round × %d rounds per path, single thread; start-up: %d generated classes, %d runs per side.%n%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(),
                cfg.redisServer(),
                cfg.calls(),
                cfg.rounds(),
                cfg.classes(),
                cfg.startups()));
        String note = System.getProperty("bench.note", "");
        if (!note.isBlank()) {
            md.append("Machine: ").append(note.strip()).append("\n\n");
        }
        try (RedisServers servers = new RedisServers(cfg.redisServer())) {
            int port = servers.start();
            String parts = System.getProperty("bench.agent.parts", "calls,startup");
            if (parts.contains("calls")) {
                md.append(calls(cfg, dir, port));
            }
            if (parts.contains("startup")) {
                md.append(startup(cfg, dir, port));
            }
        }
        // the child logs stay behind only when something failed (the exception names the problem)
        deleteTree(dir);
        md.append(String.format(Locale.ROOT, "Whole run: %.0f s.%n", (System.nanoTime() - started) / 1e9));
        return md.toString();
    }

    private static String calls(Config cfg, Path dir, int port) throws Exception {
        Path conf = dir.resolve("calls.conf");
        Files.writeString(
                conf,
                "redis = redis://127.0.0.1:" + port + "\napplication = agentbench\n"
                        + "benchtarget.NoopService#noop(java.lang.String) key=\"agentbench:{0}\"\n",
                StandardCharsets.UTF_8);
        long budget = Math.max(30, (long) cfg.calls() * cfg.rounds() * 4 / 1000); // ~1 ms per call worst case
        List<String> cmd = List.of(
                java(),
                "-Xms256m",
                "-Xmx256m",
                "-javaagent:" + cfg.agentJar() + "=config=" + conf,
                "-cp",
                System.getProperty("java.class.path"),
                AgentCallChild.class.getName(),
                Integer.toString(port),
                Integer.toString(cfg.calls()),
                Integer.toString(cfg.rounds()),
                Long.toString(budget));
        Bench.progress(
                "agent calls: child JVM, " + cfg.calls() + " calls × " + cfg.rounds() + " rounds × 2 paths × 2 modes");
        Proc p = Proc.run(cmd, dir.resolve("calls.log"), budget + 30);
        if (p.rc != 0) {
            throw new IllegalStateException("agent call child failed (exit " + p.rc + "):\n" + p.output);
        }
        Map<String, CallStats> stats = parse(p.output);
        Map<String, Paired> paired = parsePaired(p.output);
        Table t = new Table("keys", "path", "calls", "mean µs", "p50 µs", "p99 µs");
        Table pt = new Table(
                "keys",
                "pairs",
                "added mean µs (95 % CI)",
                "1 %-trimmed mean µs (95 % CI)",
                "median of differences µs");
        for (String mode : new String[] {"distinct", "same"}) {
            CallStats d = stats.get(mode + "/direct");
            CallStats a = stats.get(mode + "/agent");
            Paired pd = paired.get(mode);
            if (d == null || a == null || pd == null) {
                throw new IllegalStateException("agent call child printed no " + mode + " results:\n" + p.output);
            }
            String keys = mode.equals("distinct") ? "distinct keys" : "one key, sequential";
            t.row(
                    keys,
                    "`LockManager.acquire` / `close` around the no-op",
                    d.n(),
                    f2(d.mean()),
                    f2(d.p50()),
                    f2(d.p99()));
            t.row(keys, "agent-wrapped no-op", a.n(), f2(a.mean()), f2(a.p50()), f2(a.p99()));
            pt.row(
                    keys,
                    pd.n(),
                    signed(pd.mean()) + " [" + signed(pd.lo()) + ", " + signed(pd.hi()) + "]",
                    signed(pd.tmean()) + " [" + signed(pd.tlo()) + ", " + signed(pd.thi()) + "]",
                    signed(pd.median()));
        }
        return "#### Added time per call (beyond the lock cycle)\n\n" + pt.markdown()
                + "\nPaired measurement: calls alternate one by one (direct, agent, agent, direct, …), each pair gives one "
                + "difference agent − direct; the interval is mean ± 1.96 standard errors of those differences. "
                + "The trimmed column drops the 1 % most extreme differences on each side (GC pauses, preemption by "
                + "other processes).\n\n" + t.markdown()
                + "\nOne child JVM with `-javaagent` (rule `benchtarget.NoopService#noop(java.lang.String) key=\"agentbench:{0}\"`, "
                + "defaults: TTL 30 s, auto-refresh on); the direct path uses a `LockManager` built from the same settings "
                + "with the same options (source AGENT), one warm-up of " + cfg.calls()
                + " pairs first. Distinct keys: each "
                + "path takes names of its own that were never taken before (`d…` / `a…`), so both pay a new name's Redis key "
                + "creation on every call; one key: both paths take the same name, one after the other.\n\n";
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String signed(double v) {
        return String.format(Locale.ROOT, "%+.2f", v);
    }

    /** A start-up difference in whole milliseconds (the wall clock's resolution here), with its sign. */
    private static String signedMs(double v) {
        return String.format(Locale.ROOT, "%+,.0f", v);
    }

    static Map<String, CallStats> parse(String output) {
        Map<String, CallStats> m = new LinkedHashMap<>();
        Matcher x = RESULT.matcher(output);
        while (x.find()) {
            m.put(
                    x.group(1) + "/" + x.group(2),
                    new CallStats(
                            Long.parseLong(x.group(3)),
                            Double.parseDouble(x.group(4)),
                            Double.parseDouble(x.group(5)),
                            Double.parseDouble(x.group(6))));
        }
        return m;
    }

    /** The start-up variants, in the order of {@code names}/{@code cmds} below (the baseline only when asked for). */
    private static final int PLAIN = 0, EMPTY = 1, AGENT = 2, PLAIN_LOGGING = 3, AGENT_LOGGING = 4, BASELINE = 5;

    private static String startup(Config cfg, Path dir, int port) throws Exception {
        Bench.progress("start-up: generating and compiling " + cfg.classes() + " classes");
        long g0 = System.nanoTime();
        Path app = StartupApp.build(dir.resolve("app"), cfg.classes(), false);
        Path loggingApp = StartupApp.build(dir.resolve("app-logging"), cfg.classes(), true);
        long genMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - g0);
        Path conf = dir.resolve("startup.conf");
        Files.writeString(
                conf,
                "redis = redis://127.0.0.1:" + port + "\napplication = startupbench\n" + StartupApp.RULE + "\n",
                StandardCharsets.UTF_8);
        String agentArg = "-javaagent:" + cfg.agentJar() + "=config=" + conf;
        List<String> plain = List.of(java(), "-cp", app.toString(), StartupApp.MAIN);
        List<String> empty =
                List.of(java(), "-javaagent:" + emptyAgentJar(dir), "-cp", app.toString(), StartupApp.MAIN);
        List<String> agent = List.of(java(), agentArg, "-cp", app.toString(), StartupApp.MAIN);
        List<String> plainLogging = List.of(java(), "-cp", loggingApp.toString(), StartupApp.MAIN);
        List<String> agentLogging = List.of(java(), agentArg, "-cp", loggingApp.toString(), StartupApp.MAIN);
        String baselineJar = System.getProperty("bench.agent.baseline-jar", "");
        List<String> baseline = baselineJar.isBlank()
                ? null
                : List.of(
                        java(),
                        "-javaagent:" + baselineJar + "=config=" + conf,
                        "-cp",
                        app.toString(),
                        StartupApp.MAIN);
        // variants in a rotating order (round i starts with variant i), so none is always first after another's run
        List<String> names = new ArrayList<>(List.of("plain", "empty", "agent", "plain-logging", "agent-logging"));
        List<List<String>> cmds = new ArrayList<>(List.of(plain, empty, agent, plainLogging, agentLogging));
        if (baseline != null) {
            names.add("baseline");
            cmds.add(baseline);
        }
        // one untimed run each fills the file cache and checks the agent really instrumented the named method
        for (int v = 0; v < cmds.size(); v++) {
            String out = startOnce(cmds.get(v), dir, names.get(v) + "-warm", cfg.classes()).output;
            if (names.get(v).startsWith("agent") && !out.contains("instrumented gen.p0.C0#value")) {
                throw new IllegalStateException("the agent did not report instrumenting gen.p0.C0#value:\n" + out);
            }
        }
        int k = names.size();
        long[][] wall = new long[k][cfg.startups()];
        long[][] cpu = new long[k][cfg.startups()];
        for (int i = 0; i < cfg.startups(); i++) {
            Bench.progress("start-up: round " + (i + 1) + " of " + cfg.startups());
            for (int j = 0; j < k; j++) {
                int v = (i + j) % k;
                Timed t = startOnce(cmds.get(v), dir, names.get(v), cfg.classes());
                wall[v][i] = t.millis;
                cpu[v][i] = t.cpuMillis;
            }
        }
        boolean withCpu = cpu[PLAIN][0] >= 0;
        Table t = new Table(
                "JVM start-up, " + cfg.classes() + " classes loaded",
                "median ms",
                "min ms",
                "max ms",
                "CPU ms, median (user + sys)",
                "notes");
        String[] labels = {
            "`java -cp app.jar gen.Main`",
            "same with an empty `-javaagent` (premain does nothing)",
            "same with `-javaagent:lock-agent.jar=config=…` (1 rule)",
            "the app that logs one JUL line first (`java -cp app-logging.jar gen.Main`)",
            "the app that logs, with `-javaagent:lock-agent.jar=config=…`",
            baseline == null
                    ? ""
                    : "the silent app with the baseline agent `"
                            + Path.of(baselineJar).getFileName() + "`"
        };
        for (int v = 0; v < k; v++) {
            t.row(
                    labels[v],
                    Table.num(median(wall[v])),
                    min(wall[v]),
                    max(wall[v]),
                    withCpu ? Table.num(median(cpu[v])) : "—",
                    "");
        }
        StringBuilder added = new StringBuilder(added(wall, cpu, AGENT, PLAIN, withCpu))
                .append("; an empty agent adds ")
                .append(signedMs(median(wall[EMPTY]) - median(wall[PLAIN])))
                .append(" (min ")
                .append(signedMs(min(wall[EMPTY]) - min(wall[PLAIN])))
                .append(")");
        if (baseline != null) {
            added.append("; the baseline agent ")
                    .append(signedMs(median(wall[BASELINE]) - median(wall[PLAIN])))
                    .append(" (min ")
                    .append(signedMs(min(wall[BASELINE]) - min(wall[PLAIN])))
                    .append("; paired ")
                    .append(signedMs(pairedMedian(wall[BASELINE], wall[PLAIN])))
                    .append("); this agent − the baseline, paired: ")
                    .append(signedMs(pairedMedian(wall[AGENT], wall[BASELINE])));
        }
        t.row(
                "**added by the agent, silent app**",
                signedMs(median(wall[AGENT]) - median(wall[PLAIN])),
                signedMs(min(wall[AGENT]) - min(wall[PLAIN])),
                "",
                "",
                added.toString());
        t.row(
                "**added by the agent, app that logs**",
                signedMs(median(wall[AGENT_LOGGING]) - median(wall[PLAIN_LOGGING])),
                signedMs(min(wall[AGENT_LOGGING]) - min(wall[PLAIN_LOGGING])),
                "",
                "",
                added(wall, cpu, AGENT_LOGGING, PLAIN_LOGGING, withCpu));
        return "#### JVM start-up\n\n" + t.markdown()
                + "\nWall time from process start to exit "
                + "of a generated app (" + cfg.classes()
                + " classes in one jar, each with a static initialiser; `main` "
                + "loads and initialises all of them), in two forms: *silent* (prints one line to stdout at the end, no "
                + "logging) and *logs* (the same, but `main` first writes one java.util.logging INFO line, as an application "
                + "that logs its start does). The agent's config names one method of one of the classes "
                + "(`" + StartupApp.RULE + "`); the lock client connects lazily, so no Redis round trip is in the "
                + "start-up. The agent's start-up report goes through `System.Logger`, which in the silent app "
                + "means the agent sets up java.util.logging, a cost the app that logs pays itself. "
                + cfg.startups() + " rounds after one untimed run each; each round runs every variant once, "
                + "in an order rotating by round; added = median (and min) of the variant − the same of the app without the "
                + "agent, and paired: the median of the differences within each round"
                + (withCpu ? "; CPU from `/usr/bin/time`" : "") + ". Generating and compiling the apps "
                + "took " + genMs + " ms (not counted).\n\n";
    }

    /** The notes for variant {@code a} against the same app without the agent, {@code b}. */
    private static String added(long[][] wall, long[][] cpu, int a, int b, boolean withCpu) {
        return "min "
                + signedMs(min(wall[a]) - min(wall[b]))
                + "; paired (median of the per-round differences) " + signedMs(pairedMedian(wall[a], wall[b]))
                + (withCpu ? "; CPU added " + signedMs(median(cpu[a]) - median(cpu[b])) : "");
    }

    /** A jar holding only {@link benchtarget.EmptyAgent}, as the floor any agent costs. */
    private static Path emptyAgentJar(Path dir) throws IOException {
        Path jar = dir.resolve("empty-agent.jar");
        java.util.jar.Manifest mf = new java.util.jar.Manifest();
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Premain-Class", benchtarget.EmptyAgent.class.getName());
        String entry = benchtarget.EmptyAgent.class.getName().replace('.', '/') + ".class";
        try (java.io.OutputStream os = Files.newOutputStream(jar);
                java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(os, mf);
                java.io.InputStream in =
                        AgentBenchmarkMain.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new java.util.jar.JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    /** One start: wall ms, CPU ms (user + sys, -1 without /usr/bin/time), output. */
    private record Timed(long millis, long cpuMillis, String output) {}

    private static final Path TIME = Path.of("/usr/bin/time");

    private static Timed startOnce(List<String> cmd, Path dir, String name, int classes) throws Exception {
        Path cpuFile = dir.resolve(name + ".cpu");
        List<String> full = new ArrayList<>();
        boolean timed = Files.isExecutable(TIME);
        if (timed) {
            full.addAll(List.of(TIME.toString(), "-f", "%U %S", "-o", cpuFile.toString()));
        }
        full.addAll(cmd);
        long t0 = System.nanoTime();
        Proc p = Proc.run(full, dir.resolve(name + ".log"), 120);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        if (p.rc != 0 || !p.output.contains("loaded " + classes)) {
            throw new IllegalStateException("start-up run " + name + " failed (exit " + p.rc + "):\n" + p.output);
        }
        long cpu = -1;
        if (timed) {
            String[] us =
                    Files.readString(cpuFile, StandardCharsets.UTF_8).strip().split("\\s+");
            cpu = Math.round((Double.parseDouble(us[us.length - 2]) + Double.parseDouble(us[us.length - 1])) * 1000);
        }
        return new Timed(ms, cpu, p.output);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The median of {@code a[i] - b[i]}: both timed in round i, so drift between rounds cancels. */
    static double pairedMedian(long[] a, long[] b) {
        long[] d = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return median(d);
    }

    static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    private static long min(long[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static long max(long[] v) {
        return Arrays.stream(v).max().orElse(0);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A finished child process: exit status and combined output. */
    private record Proc(int rc, String output) {
        static Proc run(List<String> cmd, Path log, long timeoutSeconds) throws IOException, InterruptedException {
            Process p = new ProcessBuilder(new ArrayList<>(cmd))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("child JVM timed out after " + timeoutSeconds + " s: " + cmd);
            }
            return new Proc(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
    }
}
