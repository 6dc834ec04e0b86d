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
    private static final ThreadLocal<TokenSource> TOKENS = ThreadLocal.withInitial(TokenSource::new);

    public static JvmIdentity create() {
        byte[] id = new byte[8];
        RANDOM.nextBytes(id);
        return new JvmIdentity(
                HexFormat.of().formatHex(id),
                hostName(),
                ProcessHandle.current().pid());
    }

    /** A fresh random 128-bit owner token (a generator per thread: no lock shared by all acquiring threads). */
    public static String newToken() {
        return TOKENS.get().next();
    }

    /**
     * Random bytes drawn from the thread's DRBG 32 tokens at a time: each {@code nextBytes} call also
     * re-hashes the DRBG state, so one call per token cost twice the hashing of the token itself.
     */
    private static final class TokenSource {
        private static final int TOKEN_BYTES = 16;
        private static final char[] HEX = "0123456789abcdef".toCharArray();
        private final SecureRandom random = drbg();
        private final byte[] buffer = new byte[TOKEN_BYTES * 32];
        private int at = buffer.length;

        String next() {
            if (at == buffer.length) {
                random.nextBytes(buffer);
                at = 0;
            }
            char[] hex = new char[TOKEN_BYTES * 2];
            for (int i = 0; i < TOKEN_BYTES; i++) {
                int b = buffer[at + i];
                hex[2 * i] = HEX[(b >> 4) & 0xf];
                hex[2 * i + 1] = HEX[b & 0xf];
                buffer[at + i] = 0; // a handed-out token does not stay in memory twice
            }
            at += TOKEN_BYTES;
            return new String(hex);
        }
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
