package dev.lockwarden;

import dev.lockwarden.config.RedisUri;
import dev.lockwarden.config.Settings;
import dev.lockwarden.config.TlsSettings;
import dev.lockwarden.inspect.RedisLockInspector;
import dev.lockwarden.internal.EngineSettings;
import dev.lockwarden.internal.JvmIdentity;
import dev.lockwarden.internal.LockEngine;
import dev.lockwarden.metrics.MeteredInspector;
import dev.lockwarden.metrics.MetricsConfig;
import dev.lockwarden.spi.LockedBody;
import dev.lockwarden.store.ConnectionSettings;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisDeployment;
import dev.lockwarden.store.ReplicaAcks;
import dev.lockwarden.store.StoreFactory;
import dev.lockwarden.store.StoreFactory.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLSocketFactory;

/**
 * Entry point: takes distributed locks on Redis. Thread-safe; create one per application and
 * close it on shutdown (closing releases the locks it still holds).
 *
 * <pre>{@code
 * try (LockManager locks = LockManager.builder().redis("redis://localhost:6379").application("billing").build();
 *      LockHandle lock = locks.acquire("payment:TX-123", LockOptions.ttl(Duration.ofSeconds(30)))) {
 *     long fence = lock.fencingToken();
 *     ...
 * }
 * }</pre>
 * <p>
 * Over 200 lines because it holds the builder, whose settings each carry their documentation; the manager itself is a thin facade over the engine.
 */
public final class LockManager implements AutoCloseable {
    private final LockEngine engine;
    private final LockInspector inspector;
    private final LockOptions defaults;
    private final String application;
    private final java.util.function.Supplier<String> redis;
    private final Thread shutdownHook;

    private LockManager(
            LockEngine engine,
            LockInspector inspector,
            LockOptions defaults,
            String application,
            java.util.function.Supplier<String> redis,
            boolean withShutdownHook) {
        this.engine = engine;
        this.redis = redis;
        this.inspector = inspector;
        this.defaults = defaults;
        this.application = application;
        this.shutdownHook = withShutdownHook ? new Thread(this::closeAtShutdown, "lockwarden-shutdown") : null;
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /** Longest time the shutdown hook keeps the JVM from exiting. */
    static final long SHUTDOWN_BOUND_MILLIS = 5_000;

    /** JVM exit: give back the locks still held (one batch per node, bounded) and stop the watchdog. */
    private void closeAtShutdown() {
        Thread closer = new Thread(engine::close, "lockwarden-shutdown-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(SHUTDOWN_BOUND_MILLIS); // a dead Redis must not hang the JVM's exit
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@return a builder reading unset values from {@code lockwarden.*} system properties, then {@code LOCKWARDEN_*} env} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Takes the lock, waiting up to {@code options.waitUpTo()}.
     *
     * @param name    lock name, e.g. {@code payment:TX-123} (no braces, at most 512 bytes)
     * @param options TTL, wait budget, auto-refresh, holdAtLeast
     * @return the handle: the lock is ours until it is released or lost
     * @throws LockNotAcquiredException busy for the whole wait budget
     * @throws LockStoreException       Redis unreachable (never reported as busy)
     */
    public LockHandle acquire(String name, LockOptions options) {
        return engine.acquire(name, Objects.requireNonNull(options, "options"));
    }

    /**
     * Takes the lock with the default options (TTL {@code lockwarden.ttl}, wait {@code lockwarden.wait}).
     *
     * @param name lock name
     * @return the handle
     * @throws LockNotAcquiredException busy for the whole wait budget
     * @throws LockStoreException       Redis unreachable
     */
    public LockHandle acquire(String name) {
        return acquire(name, defaults);
    }

    /**
     * One attempt that never waits: empty when busy. Redis failures still throw {@link LockStoreException}.
     *
     * @param name    lock name
     * @param options TTL, auto-refresh, holdAtLeast (the wait budget is ignored)
     * @return the handle, or empty when another holder has the lock
     */
    public Optional<LockHandle> tryAcquire(String name, LockOptions options) {
        return engine.tryAcquire(name, Objects.requireNonNull(options, "options"));
    }

    /**
     * Runs {@code body} under the lock and releases it. If the lock was lost while the body ran,
     * throws {@link LockLostException} after it, because the body may have overlapped another holder.
     * Checked exceptions of the body are wrapped in {@link LockException}.
     *
     * @param name    lock name
     * @param options as for {@link #acquire(String, LockOptions)}
     * @param body    the work to run while holding the lock
     * @param <T>     the body's result type
     * @return what the body returned
     * @throws LockNotAcquiredException busy for the whole wait budget (the body did not run)
     * @throws LockLostException        the lock was lost while the body ran
     */
    public <T> T withLock(String name, LockOptions options, Callable<T> body) {
        Objects.requireNonNull(options, "options");
        try (LockHandle lock = acquire(name, options)) {
            T result;
            try {
                result = body.call();
            } catch (Exception | Error e) {
                LockedBody.afterBody(lock, e, LockedBody::lostException); // e stays the one thrown
                throw e;
            }
            Throwable lost = LockedBody.afterBody(lock, null, LockedBody::lostException);
            if (lost != null) {
                throw (RuntimeException) lost;
            }
            return result;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new LockException("body run under lock '" + name + "' threw " + e, e);
        }
    }

    /** {@return read and repair access for dashboards: list, get, fence, force-release, events} */
    public LockInspector inspector() {
        return inspector;
    }

    /** {@return the options {@link #acquire(String)} uses} */
    public LockOptions defaultOptions() {
        return defaults;
    }

    /** {@return the application name shown on the dashboard} */
    public String application() {
        return application;
    }

    /**
     * {@return where this manager's locks live, without credentials} E.g. {@code redis://127.0.0.1:6379},
     * {@code redlock[redis://a:6379, ...]}, {@code cluster[...]} or {@code sentinel[mymaster@redis://s1:26379,...]
     * master host:port} (the master now) — for start-up lines and dashboards.
     */
    public String describeRedis() {
        return redis.get();
    }

    /** Releases every lock still held, stops background threads and closes connections. */
    @Override
    public void close() {
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) anyway; closing twice is harmless
            }
        }
        engine.close();
    }

    /** Builds a {@link LockManager}; explicit values win over system properties, environment and defaults. */
    public static final class Builder {
        private Topology topology;
        private List<String> uris = List.of();
        private String sentinelMaster;
        private String application;
        private String keyPrefix;
        private Duration defaultTtl;
        private Duration defaultWait;
        private Duration fenceRetention;
        private Duration timeout = Duration.ofSeconds(2);
        private int maxConnections = 32;
        private boolean reentrant = true;
        private boolean verifyOnBuild = true;
        private boolean shutdownHook = true;
        private long eventsMaxLen = 100_000;
        private Boolean historyCycles;
        private Duration historyRetention;
        private long auditMaxLen = 100_000;
        private AuditSigner auditSigner;
        private Settings settings = Settings.fromSystem();
        private SSLSocketFactory sslSocketFactory;
        private ReplicaAcks replicaAcks;

        private Builder() {}

        /**
         * One Redis node: {@code redis://[user:pass@]host:port[/db]} or {@code rediss://} for TLS.
         *
         * @param uri the node's URI
         * @return this builder
         */
        public Builder redis(String uri) {
            return topology(Topology.SINGLE, uri);
        }

        /**
         * Redlock over N independent nodes (N odd, at least 3; 5 recommended).
         *
         * @param uris the nodes' URIs
         * @return this builder
         */
        public Builder redlock(String... uris) {
            return topology(Topology.REDLOCK, uris);
        }

        /**
         * Redis Cluster: seed node URIs.
         *
         * @param uris the nodes' URIs
         * @return this builder
         */
        public Builder cluster(String... uris) {
            return topology(Topology.CLUSTER, uris);
        }

        /**
         * Redis Sentinel: the master the sentinels monitor as {@code masterName}, followed through failovers;
         * after a failover every lock this manager holds is re-checked on the new master at once (docs/failover.md).
         * The user, password and TLS of the sentinel URIs ({@code redis://[user:pass@]host:26379}, or
         * {@code rediss://}) are used for the sentinels and the master alike, their database for the master.
         * {@link #build()} asks the sentinels for the master even with {@code verifyOnBuild(false)}.
         *
         * @param masterName   the name in the sentinels' {@code sentinel monitor} line, e.g. {@code mymaster}
         * @param sentinelUris the sentinels' URIs
         * @return this builder
         */
        public Builder sentinel(String masterName, String... sentinelUris) {
            String name = requireText(masterName, "Sentinel master name");
            topology(Topology.SENTINEL, sentinelUris);
            this.sentinelMaster = name;
            return this;
        }

        private Builder topology(Topology t, String... given) {
            if (topology != null) {
                throw new IllegalArgumentException(name(topology) + "(...) and " + name(t) + "(...) were both called:"
                        + " a manager uses one topology, call only one of redis, redlock, cluster and sentinel");
            }
            if (given == null || given.length == 0) {
                throw new IllegalArgumentException(name(t) + "(...) needs at least one Redis URI");
            }
            this.topology = t;
            this.uris = List.copyOf(Arrays.asList(given));
            return this;
        }

        /**
         * The application name shown on the dashboard (default: main class or host name).
         *
         * @param name the application name
         * @return this builder
         */
        public Builder application(String name) {
            this.application = requireText(name, "application name");
            return this;
        }

        /**
         * Prefix of every lock key (default {@code lock:}); no braces, and it must not overlap Lockwarden's own
         * {@code lockwarden:*} keys ({@link #build()} refuses {@code lockwarden:…} and any start of
         * {@code lockwarden:}, the empty prefix included).
         *
         * @param prefix the key prefix
         * @return this builder
         */
        public Builder keyPrefix(String prefix) {
            this.keyPrefix = Objects.requireNonNull(prefix, "keyPrefix");
            return this;
        }

        /**
         * TTL used by {@link LockManager#acquire(String)} (default 30 s).
         *
         * @param ttl the default TTL
         * @return this builder
         */
        public Builder defaultTtl(Duration ttl) {
            this.defaultTtl = Objects.requireNonNull(ttl, "defaultTtl");
            return this;
        }

        /**
         * Wait budget used by {@link LockManager#acquire(String)} (default 0: non-blocking).
         *
         * @param wait the default wait budget
         * @return this builder
         */
        public Builder defaultWait(Duration wait) {
            this.defaultWait = Objects.requireNonNull(wait, "defaultWait");
            return this;
        }

        /**
         * How long a fence counter survives without acquisitions (default 7 days).
         *
         * @param retention the fence counters' retention
         * @return this builder
         */
        public Builder fenceRetention(Duration retention) {
            this.fenceRetention = Objects.requireNonNull(retention, "fenceRetention");
            return this;
        }

        /**
         * Connect and command timeout per Redis call (default 2 s).
         *
         * @param timeout the per-call timeout
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Connection pool size per node (default 32).
         *
         * @param max the limit
         * @return this builder
         */
        public Builder maxConnections(int max) {
            this.maxConnections = max;
            return this;
        }

        /**
         * Whether a thread re-acquiring a name it holds gets a nested handle without a Redis call (default true).
         *
         * @param on true to switch it on
         * @return this builder
         */
        public Builder reentrant(boolean on) {
            this.reentrant = on;
            return this;
        }

        /**
         * Whether {@link #build()} PINGs Redis so a wrong URI fails at once (default true).
         *
         * @param on true to switch it on
         * @return this builder
         */
        public Builder verifyOnBuild(boolean on) {
            this.verifyOnBuild = on;
            return this;
        }

        /**
         * Approximate cap of the events stream (default 100,000 entries).
         *
         * @param max the limit
         * @return this builder
         */
        public Builder eventsMaxLen(long max) {
            this.eventsMaxLen = max;
            return this;
        }

        /**
         * Whether every acquire/release cycle is recorded in the lock's own capped history, shown by
         * {@link LockInspector#events(String)} and the dashboard's lock detail (default false, setting
         * {@code lockwarden.history.cycles}). On, every release also runs {@code XADD} and
         * {@code PEXPIRE} in Redis, and every distinct lock name keeps a small stream for the history
         * retention (docs/lifecycle.md, docs/benchmarks.md); force-releases and lost locks are recorded either way.
         *
         * @param on true to record every cycle
         * @return this builder
         */
        public Builder historyCycles(boolean on) {
            this.historyCycles = on;
            return this;
        }

        /**
         * How long a lock's history stream outlives its last entry (default 1 day, setting
         * {@code lockwarden.history.retention}): a name used once (an order id) leaves no stream behind
         * for longer. A force-release sets the fence retention on it, the next entry this retention again.
         *
         * @param retention at least 1 minute
         * @return this builder
         */
        public Builder historyRetention(Duration retention) {
            this.historyRetention = Objects.requireNonNull(retention, "historyRetention");
            return this;
        }

        /**
         * Audit records are never trimmed below this many entries (default 100,000).
         *
         * @param max the limit
         * @return this builder
         */
        public Builder auditMaxLen(long max) {
            this.auditMaxLen = max;
            return this;
        }

        /**
         * The dashboard's key for the audit stream: each force-release's record is sealed into a MAC chain
         * ({@link AuditSigner}) and appended only if the stream's last record is still the one it names, and
         * {@link LockInspector#audit} checks every record's seal. Applications leave it unset (default): their
         * records are unsealed, shown as not from the dashboard.
         *
         * @param signer the key holder (null = none)
         * @return this builder
         */
        public Builder auditSigner(AuditSigner signer) {
            this.auditSigner = signer;
            return this;
        }

        /**
         * TLS trust (and client keys) for {@code rediss://} URIs, e.g. from an {@code SSLContext} over
         * your CA; wins over the {@code lockwarden.tls.*} settings (docs/tls.md); default: those settings,
         * else the JVM's trust store ({@code javax.net.ssl.trustStore}).
         *
         * @param factory the socket factory for TLS connections
         * @return this builder
         */
        public Builder tls(SSLSocketFactory factory) {
            this.sslSocketFactory = Objects.requireNonNull(factory, "tls socket factory");
            return this;
        }

        /**
         * Whether a JVM shutdown hook releases the locks this manager still holds when the JVM exits
         * without {@link LockManager#close()} (default on): one batch per node, delaying the exit at most 5 s,
         * then the watchdog stops. Switch it off if your container closes the manager itself.
         *
         * @param on true to switch it on
         * @return this builder
         */
        public Builder shutdownHook(boolean on) {
            this.shutdownHook = on;
            return this;
        }

        /**
         * Hands a lock out only after {@code replicas} replicas of the master acknowledged it ({@code WAIT}); fewer
         * within the timeout → the lock is released and the caller gets a {@link LockStoreException} naming the
         * master and the acknowledgements it got; refreshes and {@code extend} wait the same way. The default of
         * every lock whose {@link LockOptions#replicaAcks(int, Duration)} is not set (default off, setting
         * {@code lockwarden.replica-acks}, e.g. {@code 1/100ms}). Single node (and Sentinel) only: Redlock and
         * Redis Cluster refuse it (docs/failover.md).
         *
         * @param replicas at least 0 (0 = off)
         * @param timeout  at least 1 ms, shorter than the default TTL and the Redis {@link #timeout(Duration)}
         * @return this builder
         */
        public Builder replicaAcks(int replicas, Duration timeout) {
            this.replicaAcks = ReplicaAcks.of(replicas, timeout, "LockManager.Builder.replicaAcks");
            return this;
        }

        /**
         * Where unset values come from (default: system properties and environment).
         *
         * @param settings the source of unset values
         * @return this builder
         */
        public Builder settings(Settings settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * Builds the manager and checks that Redis answers.
         *
         * @return the manager; close it on shutdown
         * @throws IllegalArgumentException a setting is invalid (the message names it and the fix)
         * @throws LockStoreException       Redis is unreachable or rejects the credentials
         */
        public LockManager build() {
            resolveTopology();
            List<RedisUri> parsed = new ArrayList<>();
            for (String u : uris) {
                parsed.add(RedisUri.parse(u));
            }
            String app = application != null
                    ? application
                    : settings.string(Settings.APPLICATION, JvmIdentity.defaultApplication());
            KeySpace keys = new KeySpace(keyPrefix != null ? keyPrefix : settings.string(Settings.KEY_PREFIX, "lock:"));
            Duration ttl = defaultTtl != null ? defaultTtl : settings.duration(Settings.TTL, Duration.ofSeconds(30));
            Duration wait = defaultWait != null ? defaultWait : settings.duration(Settings.WAIT, Duration.ZERO);
            Duration retention = fenceRetention != null
                    ? fenceRetention
                    : settings.duration(Settings.FENCE_RETENTION, Duration.ofDays(7));
            if (retention.compareTo(LockOptions.MAX_TTL) < 0) {
                throw new IllegalArgumentException("fence retention " + retention + " is shorter than the longest TTL ("
                        + LockOptions.MAX_TTL + "): a fence must outlive every lock, use at least 1d");
            }
            LockOptions defaults = LockOptions.ttl(ttl).waitUpTo(wait);
            if (eventsMaxLen < 1 || auditMaxLen < 1) {
                throw new IllegalArgumentException("eventsMaxLen and auditMaxLen must be at least 1");
            }
            boolean cycles = historyCycles != null ? historyCycles : settings.bool(Settings.HISTORY_CYCLES, false);
            Duration history = historyRetention != null
                    ? historyRetention
                    : settings.duration(Settings.HISTORY_RETENTION, Duration.ofDays(1));
            if (history.compareTo(Duration.ofMinutes(1)) < 0) {
                throw new IllegalArgumentException("history retention " + history
                        + " is shorter than 1 minute: a lock's" + " history would vanish before anyone reads it; set "
                        + Settings.HISTORY_RETENTION + " to at least 1m");
            }
            MetricsConfig metricsConfig = MetricsConfig.from(settings); // bad values fail before any connection
            ReplicaAcks acks = ReplicaAcks.resolve(replicaAcks, settings, topology, ttl, timeout);
            // An explicit tls(...) wins; the lockwarden.tls.* stores are read only when a URI uses TLS.
            SSLSocketFactory tls = sslSocketFactory != null || parsed.stream().noneMatch(RedisUri::tls)
                    ? sslSocketFactory
                    : TlsSettings.socketFactory(settings).orElse(null);
            ConnectionSettings conn = new ConnectionSettings(timeout, maxConnections, tls);
            RedisDeployment redis = topology == Topology.SENTINEL
                    ? StoreFactory.sentinel(sentinelMaster, parsed, keys, conn, retention.toMillis(), verifyOnBuild)
                    : StoreFactory.create(topology, parsed, keys, conn, retention.toMillis(), verifyOnBuild);
            LockEngine engine = new LockEngine(
                    redis,
                    StoreFactory.store(redis, conn),
                    JvmIdentity.create(),
                    new EngineSettings(reentrant, app, eventsMaxLen, cycles, history.toMillis(), metricsConfig, acks));
            LockInspector inspector = new MeteredInspector(
                    new RedisLockInspector(redis, auditMaxLen, eventsMaxLen, auditSigner), engine.metrics());
            return new LockManager(engine, inspector, defaults, app, redis::describe, shutdownHook);
        }

        private void resolveTopology() {
            if (topology != null) {
                return;
            }
            Optional<Settings.Source> redlock = settings.raw(Settings.REDLOCK);
            Optional<Settings.Source> cluster = settings.raw(Settings.CLUSTER);
            Optional<Settings.Source> sentinel = settings.raw(Settings.SENTINEL);
            List<String> set = java.util.stream.Stream.of(redlock, cluster, sentinel)
                    .flatMap(Optional::stream)
                    .map(Settings.Source::where)
                    .toList();
            if (set.size() > 1) {
                throw new IllegalArgumentException(
                        "both " + String.join(" and ", set) + " are set: choose one topology and unset the other");
            }
            if (redlock.isPresent()) {
                topology(Topology.REDLOCK, split(redlock.get().value()));
            } else if (cluster.isPresent()) {
                topology(Topology.CLUSTER, split(cluster.get().value()));
            } else if (sentinel.isPresent()) {
                sentinelSetting(sentinel.get());
            } else {
                topology(Topology.SINGLE, settings.string(Settings.REDIS, "redis://localhost:6379"));
            }
        }

        /** {@code mymaster@redis://s1:26379,redis://s2:26379}; a bad value names where it was set and the form. */
        private void sentinelSetting(Settings.Source s) {
            int at = s.value().indexOf('@');
            String name = at < 0 ? "" : s.value().substring(0, at).trim();
            String[] given = at < 0 ? new String[0] : split(s.value().substring(at + 1));
            if (name.isEmpty() || name.contains("://") || name.contains(",") || given.length == 0) {
                throw new IllegalArgumentException(s.where() + " must be master@uri,uri,..., e.g."
                        + " mymaster@redis://s1:26379,redis://s2:26379; got '" + RedisUri.mask(s.value()) + "'");
            }
            for (String u : given) {
                try {
                    RedisUri.parse(u);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(s.where() + ": " + e.getMessage(), e);
                }
            }
            sentinel(name, given);
        }

        private static String name(Topology t) {
            return t == Topology.SINGLE ? "redis" : t.name().toLowerCase(java.util.Locale.ROOT);
        }

        private static String[] split(String value) {
            return Arrays.stream(value.split(","))
                    .map(String::trim)
                    .filter(x -> !x.isEmpty())
                    .toArray(String[]::new);
        }

        private static String requireText(String value, String what) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(what + " is blank");
            }
            return value;
        }
    }
}
