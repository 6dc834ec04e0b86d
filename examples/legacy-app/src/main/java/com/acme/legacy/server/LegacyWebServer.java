package com.acme.legacy.server;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Starts embedded Tomcat on 127.0.0.1 with the legacy payment web app ({@code POST /pay?id=...}). Its jars
 * (the {@code webapp/} directory next to this jar's {@code server/} directory, or {@code args[0]}) become the
 * WEB-INF/lib of a fresh web app, so Tomcat's web-app class loader loads the servlet and its own Jedis 5.
 * Port: {@code -Dlegacy.port} (default: a free one), printed as {@code LISTENING <port>}. Uses its own Byte Buddy
 * before serving, as legacy apps with Hibernate or Mockito do. Its temp dir is removed when the JVM ends;
 * {@code -Dlegacy.stopOnStdinClose=true} ends it when its standard input closes (the demo's launcher died).
 */
public final class LegacyWebServer {
    private LegacyWebServer() {}

    public static void main(String[] args) throws Exception {
        Class<?> generated = new net.bytebuddy.ByteBuddy()
                .subclass(Object.class)
                .name("com.acme.legacy.server.Generated")
                .make()
                .load(LegacyWebServer.class.getClassLoader())
                .getLoaded();
        System.out.println("HOST-BYTEBUDDY " + generated.getName() + " from "
                + net.bytebuddy.ByteBuddy.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation());
        Path lib = args.length > 0 ? Path.of(args[0]) : besideThisJar();
        Path work = Files.createTempDirectory("legacy-app-");
        Tomcat tomcat = new Tomcat();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(tomcat, work), "legacy-app-stop"));
        tomcat.setBaseDir(Files.createDirectory(work.resolve("tomcat")).toString());
        tomcat.setPort(Integer.getInteger("legacy.port", 0));
        Connector connector = tomcat.getConnector();
        connector.setProperty("address", "127.0.0.1");
        Context ctx = tomcat.addContext("", webapp(lib, work.resolve("webapp")).toString());
        Tomcat.addServlet(ctx, "payments", "com.acme.legacy.web.PaymentServlet").setLoadOnStartup(1);
        ctx.addServletMappingDecoded("/pay", "payments");
        tomcat.getServer().setPort(-1); // no shutdown port: several of these run side by side
        tomcat.start();
        if (Boolean.getBoolean("legacy.stopOnStdinClose")) {
            stopOnStdinClose();
        }
        System.out.println("LISTENING " + connector.getLocalPort());
        tomcat.getServer().await();
    }

    private static void stopOnStdinClose() {
        Thread watch = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // ignore input; only its end matters
                        }
                    } catch (IOException closed) {
                        // same as EOF
                    }
                    System.exit(0);
                },
                "legacy-app-stdin");
        watch.setDaemon(true);
        watch.start();
    }

    /** {@code ../webapp} relative to the directory holding this class's jar. */
    private static Path besideThisJar() throws URISyntaxException {
        Path jar = Path.of(LegacyWebServer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path lib = jar.getParent().resolveSibling("webapp");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException(
                    "no web app jars in " + lib + ": pass their directory as the first argument");
        }
        return lib;
    }

    private static Path webapp(Path lib, Path webapp) throws IOException {
        Path webInfLib = Files.createDirectories(webapp.resolve("WEB-INF/lib"));
        try (Stream<Path> jars = Files.list(lib)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                Files.copy(jar, webInfLib.resolve(jar.getFileName()));
            }
        }
        return webapp;
    }

    private static void stop(Tomcat tomcat, Path work) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            System.err.println("legacy-app: stopping Tomcat: " + e);
        }
        try (Stream<Path> files = Files.walk(work)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("legacy-app: could not remove " + work + ": " + e);
        }
    }
}
