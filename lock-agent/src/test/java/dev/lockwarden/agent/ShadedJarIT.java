package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The agent jar is self-contained and everything it brings is relocated, so nothing clashes with the host. */
class ShadedJarIT {
    /** A class reference to a bundled library that was not relocated. */
    private static final Pattern UNRELOCATED = Pattern.compile(
            "(?<!shaded/)(net/bytebuddy/|picocli/|redis/clients/|org/slf4j/|com/google/gson/|org/apache/commons/pool2/|org/json/|dev/lockwarden/(?!agent/))");

    /** {@code net/bytebuddy/X} or {@code Lnet/bytebuddy/X;} as a whole constant, not inside a URL or longer name. */
    private static boolean isClassReference(String text, int start) {
        char before = start > 0 ? text.charAt(start - 1) : 0;
        if (before == 'L') {
            before = start > 1 ? text.charAt(start - 2) : 0;
        }
        return !(Character.isLetterOrDigit(before) || "_./$-".indexOf(before) >= 0);
    }

    @Test
    void theShadedJarProtectsLockwardensOwnPackage() throws Exception {
        // the relocation must not rewrite the deny-list's "dev.lockwarden." (a string, not a class reference)
        try (java.net.URLClassLoader shaded = new java.net.URLClassLoader(
                new java.net.URL[] {ChildJvm.agentJar().toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Object protectedPackages = shaded.loadClass("dev.lockwarden.agent.config.Names")
                    .getField("PROTECTED")
                    .get(null);
            assertEquals(List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.lockwarden."), protectedPackages);
        }
    }

    @Test
    void everythingIsRelocatedUnderTheAgentPackage() throws Exception {
        List<String> bad = new ArrayList<>();
        int classes = 0;
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                String name = entry.getName();
                if (entry.isDirectory()) {
                    continue;
                }
                if (name.startsWith("META-INF/versions/")
                        || name.endsWith("module-info.class")
                        || !(name.startsWith("dev/lockwarden/agent/") || name.startsWith("META-INF/"))) {
                    bad.add("entry " + name);
                }
                if (name.endsWith(".class")) {
                    classes++;
                    String text = new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.ISO_8859_1);
                    Matcher m = UNRELOCATED.matcher(text);
                    while (m.find()) {
                        if (isClassReference(text, m.start())) {
                            bad.add(name + " references " + m.group(1));
                            break;
                        }
                    }
                }
            }
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals("dev.lockwarden.agent.LockAgent", main.getValue("Premain-Class"));
            assertEquals("dev.lockwarden.agent.LockAgent", main.getValue("Agent-Class"));
            assertEquals("true", main.getValue("Can-Retransform-Classes"));
            assertEquals(null, main.getValue("Multi-Release"), "multi-release parts are excluded");
            assertTrue(
                    jar.getEntry("dev/lockwarden/agent/shaded/dev/lockwarden/store/acquire.lua") != null,
                    "Lua scripts relocated");
        }
        assertTrue(classes > 3000, "Byte Buddy, Jedis and lock-core are inside: " + classes);
        assertTrue(bad.isEmpty(), bad.size() + " unrelocated: " + bad.subList(0, Math.min(20, bad.size())));
        long mb = Files.size(ChildJvm.agentJar()) / (1024 * 1024);
        assertTrue(mb < 10, "agent jar is " + mb + " MB");
    }
}
