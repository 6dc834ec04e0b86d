package dev.lockwarden.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Hex SHA-1 of a string's UTF-8 bytes, as Redis computes it ({@code redis.sha1hex} in a script,
 * {@code SCRIPT LOAD}). One helper for every user: script hashes, and the token id that names an
 * acquisition without revealing its token (force-release markers, {@code LockInfo.tokenId}). It lives
 * in {@code store} because both {@code internal} and {@code inspect} already depend on it.
 */
public final class Sha1 {
    private Sha1() {}

    /**
     * @param text any string
     * @return its SHA-1 as 40 lower-case hex digits
     */
    public static String hex(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }
}
