package dev.lockwarden.admin;

import dev.lockwarden.LockInspector;
import dev.lockwarden.admin.cli.AdminCommand;
import dev.lockwarden.admin.security.LoginService;
import dev.lockwarden.admin.service.AdminService;
import dev.lockwarden.admin.service.AuditFile;
import dev.lockwarden.admin.service.HealthService;
import dev.lockwarden.admin.ui.AdminServlet;
import dev.lockwarden.admin.ui.SecurityHeadersFilter;
import dev.lockwarden.admin.web.ForwardedHeadersFilter;
import dev.lockwarden.admin.web.HostCheckFilter;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.resource.ResourceFactory;

/**
 * The dashboard as an embedded Jetty 12 server on a loopback address, over a {@link LockInspector}.
 * The command line ({@link AdminCommand}) reads the settings and connects to Redis.
 */
public final class AdminServer implements AutoCloseable {
    /** Jars Jetty scans for Vaadin's annotations and initializers (others are skipped for a fast start). */
    private static final String SCANNED =
            ".*/(flow-|vaadin-|admin-ui|lockwarden-admin)[^/]*\\.jar$|.*/admin-ui/target/classes/.*";

    private static final System.Logger LOG = System.getLogger(AdminServer.class.getName());

    private final Server server;
    private final Path webRoot;
    private final LoginService logins;

    private AdminServer(Server server, Path webRoot, LoginService logins) {
        this.server = server;
        this.webRoot = webRoot;
        this.logins = logins;
    }

    /** The names a request may carry in {@code Host}: the bound address, localhost and the public URL's host. */
    private static Set<String> hostNames(AdminConfig config) {
        Set<String> names = new HashSet<>(Set.of(config.bind().getHostAddress(), "localhost"));
        config.publicUrl().ifPresent(u -> names.add(u.getHost().replaceAll("^\\[|\\]$", "")));
        return names;
    }

    /** The logins this dashboard checks (tests drive it directly to load the password check). */
    public LoginService logins() {
        return logins;
    }

    /** Starts the dashboard over {@code inspector}; close it to stop. */
    public static AdminServer start(AdminConfig config, LockInspector inspector) throws Exception {
        return start(config, inspector, "");
    }

    /**
     * The same, naming the deployment in the health strip.
     *
     * @param redis {@code LockManager.describeRedis()} of the manager the inspector belongs to
     */
    public static AdminServer start(AdminConfig config, LockInspector inspector, String redis) throws Exception {
        return start(config, inspector, () -> redis, null);
    }

    /**
     * The same, keeping a local copy of every force-release's audit record.
     *
     * @param redis     {@code LockManager.describeRedis()} of the manager the inspector belongs to
     * @param auditFile the JSON-lines copy ({@code --audit-file}), or null
     */
    public static AdminServer start(AdminConfig config, LockInspector inspector, String redis, AuditFile auditFile)
            throws Exception {
        return start(config, inspector, () -> redis, auditFile);
    }

    /**
     * The same, with the deployment read again at each health reading (a Sentinel's master changes on failover).
     *
     * @param redis {@code LockManager::describeRedis} of the manager the inspector belongs to
     */
    public static AdminServer start(
            AdminConfig config, LockInspector inspector, java.util.function.Supplier<String> redis) throws Exception {
        return start(config, inspector, redis, null);
    }

    /**
     * The same, with the deployment read again at each health reading and a local copy of the audit.
     *
     * @param redis     {@code LockManager::describeRedis} of the manager the inspector belongs to
     * @param auditFile the JSON-lines copy ({@code --audit-file}), or null
     */
    public static AdminServer start(
            AdminConfig config, LockInspector inspector, java.util.function.Supplier<String> redis, AuditFile auditFile)
            throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // a lock's deep link /locks/<name> carries a '%' in the name as %25 and a '/' as %2F, which
        // Jetty's default refuses as ambiguous. Nothing here is authorised by path (the login guard
        // checks every view), and Vaadin's static files refuse '..' also after decoding.
        http.setUriCompliance(UriCompliance.DEFAULT.with(
                "lock names",
                UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
                UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        if (config.behindTlsProxy() && !config.trustedProxies().any()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "--behind-tls-proxy without --trusted-proxy: X-Forwarded-For is ignored and "
                            + "every client has the proxy's address; pass --trusted-proxy with the proxy's address, e.g. 127.0.0.1/32");
        }
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(config.bind().getHostAddress());
        connector.setPort(config.port());
        server.addConnector(connector);
        Path webRoot = Files.createTempDirectory("lockwarden-admin");
        WebAppContext context = new WebAppContext();
        context.setContextPath("/");
        context.getServletHandler().setDecodeAmbiguousURIs(true); // the same URIs, through the servlet API
        context.setBaseResource(ResourceFactory.of(context).newResource(webRoot));
        context.setParentLoaderPriority(true);
        context.setAttribute("org.eclipse.jetty.server.webapp.ContainerIncludeJarPattern", SCANNED);
        context.setConfigurationDiscovered(true);
        context.setThrowUnavailableOnStartupException(true);
        // production mode even where the build's token file is absent (vaadin-dev is not on the classpath)
        context.setInitParameter("productionMode", "true");
        context.getSessionHandler().setHttpOnly(true);
        context.getSessionHandler().setSameSite(HttpCookie.SameSite.STRICT);
        context.getSessionHandler().setSecureCookies(config.behindTlsProxy());
        // a backstop for closed tabs; the idle timeout proper is IdleTimeout (polls keep the HTTP session alive)
        context.getSessionHandler()
                .setMaxInactiveInterval((int) config.sessionTimeout().toSeconds() + 60);
        EnumSet<DispatcherType> requests = EnumSet.of(DispatcherType.REQUEST);
        context.addFilter(new FilterHolder(new HostCheckFilter(hostNames(config))), "/*", requests);
        context.addFilter(new FilterHolder(new ForwardedHeadersFilter(config.trustedProxies())), "/*", requests);
        context.addFilter(new FilterHolder(new SecurityHeadersFilter(config.behindTlsProxy())), "/*", requests);
        LoginService logins = new LoginService(config.users(), Clock.systemUTC());
        context.addServlet(
                new ServletHolder(new AdminServlet(
                        Map.of(
                                AdminService.class,
                                new AdminService(inspector, config.pageSize(), config.longHeld())
                                        .withAuditFile(auditFile)
                                        .withRedis(redis.get())
                                        .withSearchBudget(config.searchBudget()),
                                LoginService.class,
                                logins,
                                HealthService.class,
                                new HealthService(inspector, redis, Clock.systemUTC())),
                        config.sessionTimeout())),
                "/*");
        server.setHandler(context);
        AdminServer admin = new AdminServer(server, webRoot, logins);
        try {
            server.start();
        } catch (Exception e) {
            admin.close();
            throw e;
        }
        return admin;
    }

    /** The port listened on (the chosen one when configured with 0). */
    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** {@code http://<bind>:<port>/}. */
    public URI uri() {
        String host = ((ServerConnector) server.getConnectors()[0]).getHost();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/");
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "stopping the dashboard failed", e);
        }
        try (Stream<Path> files = Files.walk(webRoot)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Blocks until the server stops. */
    public void join() throws InterruptedException {
        server.join();
    }

    /** Runs the dashboard: see {@link AdminCommand} and admin-ui/README.md. */
    public static void main(String[] args) {
        AdminCommand.main(args);
    }
}
