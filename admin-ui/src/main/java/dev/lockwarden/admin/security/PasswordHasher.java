package dev.lockwarden.admin.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Salted PBKDF2-HMAC-SHA256 password hashes in the form
 * {@code pbkdf2-sha256$<iterations>$<base64 salt>$<base64 hash>}.
 */
public final class PasswordHasher {
    /** Prefix of every hash this class writes and reads. */
    public static final String SCHEME = "pbkdf2-sha256";
    /** Iterations of new hashes (OWASP 2023 recommendation for PBKDF2-HMAC-SHA256). */
    public static final int DEFAULT_ITERATIONS = 600_000;
    /** The fewest iterations a hash may have: fewer make a stolen users file cheap to crack. */
    public static final int MIN_ITERATIONS = 10_000;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private PasswordHasher() {}

    /** A new hash with a random salt and {@link #DEFAULT_ITERATIONS}. */
    public static String hash(char[] password) {
        return hash(password, DEFAULT_ITERATIONS);
    }

    /** A new hash with a random salt and the given iteration count. */
    public static String hash(char[] password, int iterations) {
        if (iterations < MIN_ITERATIONS) {
            throw new IllegalArgumentException(
                    "PBKDF2 iterations " + iterations + " are too few: use at least " + MIN_ITERATIONS);
        }
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$"
                + b64.encodeToString(derive(password, salt, iterations));
    }

    /** Whether {@code password} matches {@code encoded} (constant-time comparison). */
    public static boolean matches(char[] password, String encoded) {
        Parsed p = parse(encoded);
        return MessageDigest.isEqual(p.hash(), derive(password, p.salt(), p.iterations()));
    }

    /**
     * Checks the form of a stored hash.
     *
     * @throws IllegalArgumentException with what is wrong (never echoes the hash)
     */
    public static void validate(String encoded) {
        parse(encoded);
    }

    /** The iteration count of a valid hash. */
    static int iterations(String encoded) {
        return parse(encoded).iterations();
    }

    private static Parsed parse(String encoded) {
        String[] parts = encoded == null ? new String[0] : encoded.split("\\$");
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            throw new IllegalArgumentException("password hash is not of the form " + SCHEME
                    + "$<iterations>$<salt>$<hash>: create one with `java -jar lockwarden-admin.jar hash-password`");
        }
        Parsed p;
        try {
            Base64.Decoder b64 = Base64.getDecoder();
            p = new Parsed(Integer.parseInt(parts[1]), b64.decode(parts[2]), b64.decode(parts[3]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("password hash has a bad iteration count or base64 part: "
                    + "create one with `java -jar lockwarden-admin.jar hash-password`");
        }
        if (p.iterations() < MIN_ITERATIONS || p.salt().length < SALT_BYTES || p.hash().length != HASH_BITS / 8) {
            throw new IllegalArgumentException("password hash has " + p.iterations() + " iterations, a "
                    + p.salt().length
                    + "-byte salt and a " + p.hash().length + "-byte hash; at least " + MIN_ITERATIONS
                    + " iterations, a "
                    + SALT_BYTES + "-byte salt and a " + HASH_BITS / 8 + "-byte hash are needed: create a new one with "
                    + "`java -jar lockwarden-admin.jar hash-password`");
        }
        return p;
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available in this JVM", e);
        } finally {
            spec.clearPassword();
        }
    }

    private record Parsed(int iterations, byte[] salt, byte[] hash) {}
}
