package dev.lockwarden.internal;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Who this client is, for holder info and the heartbeat: a random id per {@code LockManager},
 * the host name and the process id.
 */
public record JvmIdentity(String jvmId, String host, long pid) {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** DRBG instances are independent (NativePRNG instances share one global lock). */
    private static final ThreadLocal<SecureRandom> TOKENS = ThreadLocal.withInitial(JvmIdentity::drbg);

    public static JvmIdentity create() {
        byte[] id = new byte[8];
        RANDOM.nextBytes(id);
        return new JvmIdentity(HexFormat.of().formatHex(id), hostName(), ProcessHandle.current().pid());
    }

    /** A fresh random 128-bit owner token (a generator per thread: no lock shared by all acquiring threads). */
    public static String newToken() {
        byte[] t = new byte[16];
        TOKENS.get().nextBytes(t);
        return HexFormat.of().formatHex(t);
    }

    private static SecureRandom drbg() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (java.security.NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }

    /** The default application name: the main class's simple name, else the host name. */
    public static String defaultApplication() {
        String cmd = System.getProperty("sun.java.command");
        if (cmd != null && !cmd.isBlank()) {
            String main = cmd.split(" ")[0];
            if (main.endsWith(".jar")) {
                main = main.substring(main.lastIndexOf('/') + 1, main.length() - 4);
            } else if (main.contains(".")) {
                main = main.substring(main.lastIndexOf('.') + 1);
            }
            if (!main.isBlank()) {
                return main;
            }
        }
        return hostName();
    }
}
