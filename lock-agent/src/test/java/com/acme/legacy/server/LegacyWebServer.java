package com.acme.legacy.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Starts embedded Tomcat on loopback with the legacy payment web app: {@code args[0]} is a class directory holding
 * {@code com/acme/legacy/web}, {@code args[1]} the web app's own jars (Jedis 5 and its dependencies). They are laid
 * out as WEB-INF/classes and WEB-INF/lib of a fresh web app, so Tomcat's web-app class loader loads them. Port:
 * {@code -Dlegacy.port} (default: a free one, printed as {@code LISTENING <port>}). Uses its own Byte Buddy before
 * serving, as legacy apps with Hibernate or Mockito do.
 */
public final class LegacyWebServer {
    private LegacyWebServer() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> generated = new net.bytebuddy.ByteBuddy().subclass(Object.class).name("com.acme.legacy.server.Generated")
                .make().load(LegacyWebServer.class.getClassLoader()).getLoaded();
        System.out.println("HOST-BYTEBUDDY " + generated.getName() + " from "
                + net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation());
        Path webapp = webapp(Path.of(args[0]), Path.of(args[1]));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("legacy-tomcat").toString());
        tomcat.setPort(Integer.getInteger("legacy.port", 0));
        Connector connector = tomcat.getConnector();
        connector.setProperty("address", "127.0.0.1");
        Context ctx = tomcat.addContext("", webapp.toString());
        Tomcat.addServlet(ctx, "payments", "com.acme.legacy.web.PaymentServlet").setLoadOnStartup(1);
        ctx.addServletMappingDecoded("/pay", "payments");
        tomcat.getServer().setPort(-1); // no shutdown port: two of these run side by side
        tomcat.start();
        System.out.println("LISTENING " + connector.getLocalPort());
        tomcat.getServer().await();
    }

    private static Path webapp(Path classes, Path lib) throws IOException {
        Path webapp = Files.createTempDirectory("legacy-webapp");
        Path web = Files.createDirectories(webapp.resolve("WEB-INF/classes/com/acme/legacy/web"));
        copyAll(classes.resolve("com/acme/legacy/web"), web);
        copyAll(lib, Files.createDirectories(webapp.resolve("WEB-INF/lib")));
        return webapp;
    }

    private static void copyAll(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }
}
