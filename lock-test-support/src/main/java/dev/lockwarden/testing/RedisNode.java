package dev.lockwarden.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One real {@code redis-server} process on a free 127.0.0.1 port, with fault injection.
 *
 * <p>Started with {@code --port P --bind 127.0.0.1 --save '' --appendonly no --dir <temp dir>} plus the
 * extra arguments given to the constructor. With {@code --cluster-enabled yes} the cluster bus port
 * (P + 10000) is checked to be free too, and {@code --cluster-config-file nodes.conf} (inside the temp
 * dir) is added unless given. Server output goes to {@code redis.log} in the temp dir.
 *
 * <p>Every started node is killed by a JVM shutdown hook if it is still running at exit.
 * Methods are thread-safe.
 */
public final class RedisNode implements AutoCloseable {

    /** The only address nodes bind to. */
    public static final String HOST = "127.0.0.1";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
    private static final int CLUSTER_BUS_OFFSET = 10000;
    private static final int START_ATTEMPTS = 5;
    private static final String LOG_FILE = "redis.log";

    /** Nodes started and not yet stopped; the shutdown hook kills their processes. */
    private static final Set<RedisNode> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(RedisNode::killAllLive, "lockwarden-redis-cleanup"));
    }

    private final RedisBinary binary;
    private final Path configFile; // null, or the file redis-server reads first (a sentinel needs one)
    private final List<String> extraArgs;
    private final boolean clusterEnabled;
    private final String password;

    private int port; // 0 until the first start; then kept for restarts
    private volatile Path dir; // volatile: read without the lock by the shutdown hook
    private volatile Process process;
    private volatile boolean paused;

    /**
     * A node using {@link RedisBinary#detect()}.
     *
     * @param extraArgs extra {@code redis-server} arguments, e.g. {@code "--requirepass", "secret"}
     */
    public RedisNode(String... extraArgs) {
        this(RedisBinary.detect(), List.of(extraArgs));
    }

    /**
     * A node using the given binary.
     *
     * @param binary the redis-server to run
     * @param extraArgs extra {@code redis-server} arguments
     */
    public RedisNode(RedisBinary binary, String... extraArgs) {
        this(binary, List.of(extraArgs));
    }

    /**
     * A node using the given binary and extra {@code redis-server} arguments.
     *
     * @param binary the redis-server to run
     * @param extraArgs extra {@code redis-server} arguments
     */
    public RedisNode(RedisBinary binary, List<String> extraArgs) {
        this(binary, null, extraArgs);
    }

    /**
     * A node started as {@code redis-server CONFIGFILE --port P ... extraArgs}: the file is read first
     * and may be rewritten by the server (a sentinel records its state there).
     *
     * @param binary     the redis-server to run
     * @param configFile a config file passed first, or {@code null} for none
     * @param extraArgs  further arguments after the port
     */
    public RedisNode(RedisBinary binary, Path configFile, List<String> extraArgs) {
        this.binary = binary;
        this.configFile = configFile;
        this.extraArgs = List.copyOf(extraArgs);
        this.clusterEnabled = "yes".equalsIgnoreCase(argValue(this.extraArgs, "--cluster-enabled"));
        this.password = argValue(this.extraArgs, "--requirepass");
    }

    private static String argValue(List<String> args, String name) {
        int i = args.lastIndexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : null;
    }

    /**
     * Starts the server and waits (at most 10 s) until it answers. The first start picks a free port;
     * later starts (after {@link #kill()} or {@link #stop()}) reuse it.
     *
     * @return this node
     * @throws IllegalStateException if already running or if the server does not come up (message has its log)
     */
    public synchronized RedisNode start() {
        if (isRunning()) {
            throw new IllegalStateException("already running: " + this);
        }
        boolean fixedPort = port != 0;
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("lockwarden-redis-");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for redis-server", e);
        }
        for (int attempt = 1; ; attempt++) {
            if (!fixedPort) {
                port = freePort(clusterEnabled);
            }
            long logStart = logSize();
            Process p = launch();
            String failure = awaitReady(p, logStart);
            if (failure == null) {
                process = p;
                paused = false;
                LIVE.add(this);
                return this;
            }
            destroyAndWait(p);
            boolean portClash = failure.contains("Address already in use");
            if (portClash && attempt < START_ATTEMPTS) {
                if (fixedPort) {
                    sleep(200); // the same port is required: give whoever holds it a moment
                }
                continue;
            }
            if (!LIVE.contains(this)) {
                deleteDir(dir); // never ran: nothing worth keeping, the output is in the message
                dir = null;
            }
            throw new IllegalStateException("redis-server (" + binary + ") failed to start on " + HOST + ":" + port
                    + " (attempt " + attempt + "): " + failure);
        }
    }

    private Process launch() {
        List<String> cmd = new ArrayList<>(List.of(binary.path().toString()));
        if (configFile != null) {
            cmd.add(configFile.toString());
        }
        cmd.addAll(List.of(
                "--port",
                Integer.toString(port),
                "--bind",
                HOST,
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--dir",
                dir.toString()));
        if (clusterEnabled && !extraArgs.contains("--cluster-config-file")) {
            cmd.addAll(List.of("--cluster-config-file", "nodes.conf")); // relative to --dir
        }
        cmd.addAll(extraArgs);
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(
                            dir.resolve(LOG_FILE).toFile()))
                    .start();
            p.getOutputStream().close();
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot launch " + cmd, e);
        }
    }

    /** Polls until this very process answers on the port; returns null when ready, else why not. */
    private String awaitReady(Process p, long logStart) {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                return "process exited with code " + p.exitValue() + ", output:\n" + logSince(logStart);
            }
            try {
                // INFO proves the server on the port is ours (a foreign one could hold the port)
                String info = Resp.command(HOST, port, password, Duration.ofMillis(500), "INFO", "server");
                if (info != null && info.contains("process_id:" + p.pid() + "\r\n")) {
                    return null;
                }
                last = "another process answers on port " + port + " (Address already in use)";
                sleep(50);
            } catch (RedisReplyException e) {
                if (!"LOADING".equals(e.code())) {
                    return "server replied " + e.getMessage();
                }
                last = e.getMessage();
            } catch (UncheckedIOException e) {
                last = e.getMessage();
            }
            sleep(10);
        }
        return "no answer within " + START_TIMEOUT.toSeconds() + " s (" + last + "), output:\n" + logSince(logStart);
    }

    private String logSince(long offset) {
        try {
            byte[] all = Files.readAllBytes(dir.resolve(LOG_FILE));
            int from = (int) Math.min(offset, all.length);
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + dir.resolve(LOG_FILE) + ": " + e + ")";
        }
    }

    private long logSize() {
        try {
            return Files.size(dir.resolve(LOG_FILE));
        } catch (IOException e) {
            return 0;
        }
    }

    /** Kills the server with SIGKILL and waits for it to exit. No-op if not running. */
    public synchronized void kill() {
        Process p = process;
        if (p != null && p.isAlive()) {
            destroyAndWait(p);
        }
        paused = false;
    }

    /** Freezes the server with SIGSTOP: connections are accepted by the kernel but never answered. */
    public synchronized void pause() {
        requireRunning();
        if (!paused) {
            signal("STOP", 'T');
            paused = true;
        }
    }

    /** Unfreezes a {@linkplain #pause() paused} server with SIGCONT. No-op if not paused. */
    public synchronized void resume() {
        if (paused && isRunning()) {
            signal("CONT", null);
        }
        paused = false;
    }

    /**
     * Kills the server and starts it again on the same port with empty data. Files other than data
     * files (e.g. a cluster node's {@code nodes.conf}) are kept, so a cluster node rejoins as itself.
     *
     * @return this node
     */
    public synchronized RedisNode restart() {
        if (port == 0) {
            throw new IllegalStateException("never started: " + this);
        }
        kill();
        deleteDataFiles();
        return start();
    }

    /**
     * Stops the server (resuming it first if paused; SIGTERM, then SIGKILL after 10 s) and deletes its
     * temp dir. A later {@link #start()} reuses the port with a fresh dir. No-op if not started.
     */
    public synchronized void stop() {
        Process p = process;
        if (p != null && p.isAlive()) {
            resume();
            p.destroy();
            try {
                if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    destroyAndWait(p);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                destroyAndWait(p);
            }
        }
        paused = false;
        LIVE.remove(this);
        deleteDir(dir);
        dir = null;
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    /** {@return whether the process is alive (a paused process is alive)} */
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** {@return whether the server is currently {@linkplain #pause() paused}} */
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    /** {@return OS process id of the current (or last) server process, or -1 if never started} */
    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    /** {@return always {@value #HOST}} */
    public String host() {
        return HOST;
    }

    /** {@return the port, or 0 before the first start} */
    public int port() {
        return port;
    }

    /** {@return {@code redis://127.0.0.1:PORT} (no credentials)} */
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    /** {@return the binary this node runs} */
    public RedisBinary binary() {
        return binary;
    }

    /** {@return the {@code --requirepass} value given, or null} */
    public String password() {
        return password;
    }

    /** {@return the node's temp dir ({@code --dir}), or null when not started} */
    public synchronized Path dir() {
        return dir;
    }

    /** {@return server output so far (empty if none)} */
    public synchronized String log() {
        if (dir == null) {
            return "";
        }
        try {
            Path file = dir.resolve(LOG_FILE);
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(cannot read log: " + e + ")";
        }
    }

    /**
     * Sends one command over a fresh raw socket (authenticating with {@code --requirepass} if set) with
     * a 5 s timeout. Arrays come back as newline-separated elements, nil as null.
     *
     * @param args the command and its arguments, e.g. {@code "SET", "k", "v"}
     * @return the reply as text
     * @throws RedisReplyException on an error reply
     * @throws UncheckedIOException on connection failure or timeout (cause: ConnectException, SocketTimeoutException...)
     */
    public String command(String... args) {
        return command(COMMAND_TIMEOUT, args);
    }

    /**
     * {@link #command(String...)} with the given connect and read timeout.
     *
     * @param timeout the connect and read timeout
     * @param args the command and its arguments
     * @return the reply as text
     */
    public String command(Duration timeout, String... args) {
        return Resp.command(HOST, port, password, timeout, args);
    }

    @Override
    public String toString() {
        return "RedisNode[" + HOST + ":" + port + ", pid " + pid() + (isRunning() ? "" : ", not running")
                + (paused ? ", paused" : "") + "]";
    }

    // --- internals -------------------------------------------------------------------------------

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException("not running: " + this);
        }
    }

    /** Sends a signal with kill(1); when expectState is given, waits (≤ 2 s) until /proc shows it. */
    private void signal(String name, Character expectState) {
        long pid = process.pid();
        try {
            Process k = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                    .redirectErrorStream(true)
                    .start();
            if (!k.waitFor(5, TimeUnit.SECONDS)) {
                k.destroyForcibly();
                throw new IllegalStateException("kill -" + name + " " + pid + " hung");
            }
            if (k.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " failed: "
                        + new String(k.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            if (expectState != null) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (System.nanoTime() < deadline) {
                    Character state = procState(pid);
                    if (state == null || state == expectState) {
                        return; // no /proc (not Linux): trust the signal
                    }
                    sleep(5);
                }
                throw new IllegalStateException("process " + pid + " did not reach state " + expectState);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling " + pid, e);
        }
    }

    /** The state letter from /proc/PID/stat (R, S, T...), or null if unavailable. */
    private static Character procState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static void destroyAndWait(Process p) {
        p.destroyForcibly();
        try {
            if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("redis-server pid " + p.pid() + " did not exit after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deleteDataFiles() {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> {
                        String name = f.getFileName().toString();
                        return name.endsWith(".rdb") || name.startsWith("appendonly");
                    })
                    .forEach(RedisNode::deleteDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean " + dir, e);
        }
    }

    static void deleteDir(Path path) {
        if (path == null || !Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: it is a temp dir
        }
    }

    /** A free loopback port; with {@code clusterBus}, port + 10000 must be free (and valid) too. */
    static int freePort(boolean clusterBus) {
        for (int i = 0; i < 100; i++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
                int candidate = socket.getLocalPort();
                if (!clusterBus) {
                    return candidate;
                }
                int bus = candidate + CLUSTER_BUS_OFFSET;
                if (bus <= 65535 && isFree(bus)) {
                    return candidate;
                }
            } catch (IOException e) {
                // try again
            }
        }
        throw new IllegalStateException("no free loopback port found");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            return socket.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Shutdown hook: SIGKILL whatever is still running (works on paused processes too). */
    private static void killAllLive() {
        for (RedisNode node : LIVE) {
            Process p = node.process;
            if (p != null) {
                p.destroyForcibly();
            }
        }
        for (RedisNode node : LIVE) {
            Process p = node.process;
            try {
                if (p != null) {
                    p.waitFor(2, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                return;
            }
            deleteDir(node.dir);
        }
    }
}
