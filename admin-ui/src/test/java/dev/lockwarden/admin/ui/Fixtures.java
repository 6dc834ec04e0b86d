package dev.lockwarden.admin.ui;

import dev.lockwarden.admin.AdminConfig;
import dev.lockwarden.admin.security.PasswordHasher;
import dev.lockwarden.admin.security.UserDirectory;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/** Set-up shared by the dashboard tests: users with known passwords, a loopback config, closing all. */
public final class Fixtures {
    /** Fewer PBKDF2 iterations than production: the tests log in dozens of times. */
    private static final int TEST_ITERATIONS = 10_000;

    private Fixtures() {}

    /** Users given as {@code name:ROLE}; each one's password is {@link #password(String) name-pw}. */
    public static UserDirectory users(String... nameColonRole) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (String u : nameColonRole) {
            String name = u.substring(0, u.indexOf(':'));
            lines.put(
                    name,
                    u.substring(u.indexOf(':') + 1) + ":"
                            + PasswordHasher.hash(password(name).toCharArray(), TEST_ITERATIONS));
        }
        return UserDirectory.of(lines);
    }

    /** The usual pair: {@code viewer} (VIEWER) and {@code operator} (OPERATOR). */
    public static UserDirectory viewerAndOperator() {
        return users("viewer:VIEWER", "operator:OPERATOR");
    }

    public static String password(String user) {
        return user + "-pw";
    }

    /** A free port on the loopback address, 50 locks a page. */
    public static AdminConfig config(UserDirectory users) {
        return new AdminConfig(InetAddress.getLoopbackAddress(), 0, 50, users);
    }

    /** Closes each non-null one, carrying on past failures (for {@code @AfterAll}). */
    public static void closeAll(AutoCloseable... closeables) {
        for (AutoCloseable c : closeables) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // keep closing the rest
            }
        }
    }
}
