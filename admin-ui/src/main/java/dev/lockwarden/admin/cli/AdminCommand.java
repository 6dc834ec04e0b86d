package dev.lockwarden.admin.cli;

import dev.lockwarden.LockManager;
import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.AdminServer;
import dev.lockwarden.admin.security.AuditKeyFile;
import dev.lockwarden.admin.security.FirstRunUsers;
import dev.lockwarden.admin.security.UserDirectory;
import dev.lockwarden.admin.service.AuditFile;
import dev.lockwarden.config.Settings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code java -jar lockwarden-admin.jar [options]}: serves the dashboard. Every option also has a
 * system property and a {@code LOCKWARDEN_*} environment variable; an option given here wins.
 */
@Command(
        name = "lockwarden-admin",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        subcommands = HashPasswordCommand.class,
        usageHelpAutoWidth = true,
        description = "Serves the Lockwarden dashboard: held locks, holders, TTLs, fences, force-release.",
        footer = {
            "",
            "Environment: LOCKWARDEN_REDIS, LOCKWARDEN_REDLOCK, LOCKWARDEN_CLUSTER, LOCKWARDEN_SENTINEL, LOCKWARDEN_KEY_PREFIX,",
            "LOCKWARDEN_ADMIN_PORT, LOCKWARDEN_ADMIN_BIND, LOCKWARDEN_ADMIN_USERS, LOCKWARDEN_ADMIN_* (admin-ui/README.md).",
            "Prefer LOCKWARDEN_REDIS over --redis for URIs with a password: command lines are visible in ps."
        })
public final class AdminCommand implements Callable<Integer> {
    /** Setting naming the audit key file ({@code --audit-key}). */
    public static final String AUDIT_KEY = "lockwarden.admin.audit-key";
    /** Setting naming the JSON-lines copy of the audit records ({@code --audit-file}). */
    public static final String AUDIT_FILE = "lockwarden.admin.audit-file";

    @Spec
    CommandSpec spec;

    @Option(
            names = "--redis",
            paramLabel = "URI",
            description =
                    "one Redis node: redis://[user:password@]host:port[/db], rediss:// for TLS (default redis://localhost:6379)")
    String redis;

    @Option(
            names = "--redlock",
            paramLabel = "URI",
            split = ",",
            description = "the independent Redlock nodes, comma-separated")
    List<String> redlock;

    @Option(
            names = "--cluster",
            paramLabel = "URI",
            split = ",",
            description = "Redis Cluster seed nodes, comma-separated")
    List<String> cluster;

    @Option(
            names = "--sentinel",
            paramLabel = "MASTER@URI[,URI...]",
            description = "Redis Sentinel: the master's name, @, the sentinels' URIs, e.g."
                    + " mymaster@redis://s1:26379,redis://s2:26379; follows the master through failovers")
    String sentinel;

    @Option(names = "--key-prefix", paramLabel = "PREFIX", description = "lock key prefix (default lock:)")
    String keyPrefix;

    @Option(names = "--port", paramLabel = "PORT", description = "HTTP port, 0 = a free one (default 8080)")
    Integer port;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "loopback address to listen on (default 127.0.0.1)")
    String bind;

    @Option(
            names = "--users",
            paramLabel = "FILE",
            description = "users file, lines `name = OPERATOR|VIEWER:<hash>` (see hash-password)")
    Path users;

    @Option(
            names = "--audit-key",
            paramLabel = "FILE",
            description = "the key that seals the audit records (default: " + AuditKeyFile.FILE_NAME
                    + " next to the users file; created at the first run, mode 600)")
    Path auditKey;

    @Option(
            names = "--audit-file",
            paramLabel = "FILE",
            description = "also append every force-release's audit record to this JSON-lines file")
    Path auditFile;

    @Option(names = "--page-size", paramLabel = "N", description = "locks per page (default 50)")
    Integer pageSize;

    @Option(
            names = "--session-timeout",
            paramLabel = "DURATION",
            description =
                    "log a session out after this long without user activity; the live refresh does not count (default 30m)")
    String sessionTimeout;

    @Option(
            names = "--long-held",
            paramLabel = "DURATION",
            description = "mark locks held longer than this LONG-HELD (default 10m)")
    String longHeld;

    @Option(
            names = "--search-budget",
            paramLabel = "DURATION",
            description = "how long one filter's scan may run before it stops and offers Keep scanning (default 30s)")
    String searchBudget;

    @Option(
            names = "--behind-tls-proxy",
            description = "served over https by a reverse proxy: Secure session cookie and HSTS")
    Boolean behindTlsProxy;

    @Option(
            names = "--trusted-proxy",
            paramLabel = "CIDR[,CIDR...]",
            description = "believe X-Forwarded-For/-Proto only from these proxy addresses (default: from nobody)")
    String trustedProxy;

    @Option(
            names = "--public-url",
            paramLabel = "URL",
            description = "the address people open, e.g. https://locks.example.com/ "
                    + "(its host is accepted in Host besides the bound address and localhost)")
    String publicUrl;

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line, for tests and embedding. */
    public static CommandLine commandLine() {
        return new CommandLine(new AdminCommand());
    }

    @Override
    public Integer call() throws Exception {
        Settings settings = settings();
        LockManager.Builder builder =
                topology(LockManager.builder().settings(settings).application("lockwarden-admin"));
        AdminConfig config;
        LockManager locks;
        AuditFile audit;
        try {
            config = AdminConfig.load(settings, System.getProperties());
            builder.auditSigner(AuditKeyFile.load(
                    AuditKeyFile.place(
                            settings.raw(AUDIT_KEY).map(s -> Path.of(s.value())),
                            settings.raw(UserDirectory.USERS_FILE).map(s -> Path.of(s.value())),
                            FirstRunUsers.jarDirectory()),
                    System.out));
            audit = settings.raw(AUDIT_FILE)
                    .map(s -> new AuditFile(Path.of(s.value())))
                    .orElse(null);
            locks = builder.build();
        } catch (IllegalArgumentException
                | IllegalStateException
                | java.io.UncheckedIOException
                | dev.lockwarden.LockException e) {
            spec.commandLine().getErr().println("lockwarden-admin: " + e.getMessage());
            return 2;
        }
        AdminServer admin;
        try {
            admin = AdminServer.start(config, locks.inspector(), locks::describeRedis, audit);
        } catch (java.io.IOException e) {
            locks.close();
            spec.commandLine()
                    .getErr()
                    .println("lockwarden-admin: cannot listen on "
                            + config.bind().getHostAddress() + ":" + config.port() + " (" + e.getMessage()
                            + "): pass --port with a free port, or 0 to pick one");
            return 2;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            admin.close();
                            locks.close();
                        },
                        "lockwarden-admin-shutdown"));
        System.out.println("Lockwarden admin listening on " + admin.uri() + " ("
                + config.users().size() + " users, Redis " + locks.describeRedis() + ")");
        admin.join();
        return 0;
    }

    /** Options given here, over system properties, over the environment. */
    Settings settings() {
        Map<String, String> given = new HashMap<>();
        putIf(given, AdminConfig.PORT, port);
        putIf(given, AdminConfig.BIND, bind);
        putIf(given, AdminConfig.PAGE_SIZE, pageSize);
        putIf(given, UserDirectory.USERS_FILE, users);
        putIf(given, AUDIT_KEY, auditKey);
        putIf(given, AUDIT_FILE, auditFile);
        putIf(given, Settings.KEY_PREFIX, keyPrefix);
        putIf(given, AdminConfig.SESSION_TIMEOUT, sessionTimeout);
        putIf(given, AdminConfig.BEHIND_TLS_PROXY, behindTlsProxy);
        putIf(given, AdminConfig.LONG_HELD, longHeld);
        putIf(given, AdminConfig.SEARCH_BUDGET, searchBudget);
        putIf(given, AdminConfig.TRUSTED_PROXY, trustedProxy);
        putIf(given, AdminConfig.PUBLIC_URL, publicUrl);
        return new Settings(k -> given.containsKey(k) ? given.get(k) : System.getProperty(k), System.getenv());
    }

    private static void putIf(Map<String, String> map, String key, Object value) {
        if (value != null) {
            map.put(key, value.toString());
        }
    }

    /** An explicit --redis/--redlock/--cluster/--sentinel wins over any topology set in the environment. */
    private LockManager.Builder topology(LockManager.Builder b) {
        int given = (redis != null ? 1 : 0)
                + (redlock != null ? 1 : 0)
                + (cluster != null ? 1 : 0)
                + (sentinel != null ? 1 : 0);
        if (given > 1) {
            throw new ParameterException(
                    spec.commandLine(), "choose one of --redis, --redlock, --cluster and --sentinel");
        }
        if (sentinel != null) {
            int at = sentinel.indexOf('@');
            String master = at < 0 ? "" : sentinel.substring(0, at).strip();
            String[] uris = at < 0
                    ? new String[0]
                    : java.util.Arrays.stream(sentinel.substring(at + 1).split(","))
                            .map(String::strip)
                            .filter(u -> !u.isEmpty())
                            .toArray(String[]::new);
            if (master.isEmpty() || master.contains("://") || master.contains(",") || uris.length == 0) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--sentinel must be the master's name, @, the sentinels' URIs, e.g."
                                + " mymaster@redis://s1:26379,redis://s2:26379");
            }
            return b.sentinel(master, uris);
        }
        if (redis != null) {
            b.redis(redis);
        } else if (redlock != null) {
            b.redlock(redlock.toArray(String[]::new));
        } else if (cluster != null) {
            b.cluster(cluster.toArray(String[]::new));
        }
        return b;
    }
}
