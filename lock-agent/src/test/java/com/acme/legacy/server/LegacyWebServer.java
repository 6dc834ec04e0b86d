package com.acme.legacy.server;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Starts embedded Tomcat on a free loopback port with the web app in {@code args[0]} (WEB-INF/classes and
 * WEB-INF/lib, loaded by Tomcat's web-app class loader). Uses its own Byte Buddy before serving, as legacy
 * apps using Hibernate or Mockito do.
 */
public final class LegacyWebServer {
    private LegacyWebServer() {
    }

    public static void main(String[] args) throws Exception {
        Class<?> generated = new net.bytebuddy.ByteBuddy().subclass(Object.class).name("com.acme.legacy.server.Generated")
                .make().load(LegacyWebServer.class.getClassLoader()).getLoaded();
        System.out.println("HOST-BYTEBUDDY " + generated.getName() + " from "
                + net.bytebuddy.ByteBuddy.class.getProtectionDomain().getCodeSource().getLocation());
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("legacy-tomcat").toString());
        tomcat.setPort(0);
        Connector connector = tomcat.getConnector();
        connector.setProperty("address", "127.0.0.1");
        Context ctx = tomcat.addContext("", Path.of(args[0]).toAbsolutePath().toString());
        Tomcat.addServlet(ctx, "payments", "com.acme.legacy.web.PaymentServlet").setLoadOnStartup(1);
        ctx.addServletMappingDecoded("/pay", "payments");
        tomcat.getServer().setPort(-1); // no shutdown port: two of these run side by side
        tomcat.start();
        System.out.println("LISTENING " + connector.getLocalPort());
        tomcat.getServer().await();
    }
}
