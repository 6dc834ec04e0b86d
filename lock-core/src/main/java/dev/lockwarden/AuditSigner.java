package dev.lockwarden;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals force-release audit records into a chain only the holder of the key can extend: each record carries
 * {@code prev} (the stream id of the record before it, {@code 0-0} for the first), {@code prevMac} (that record's
 * MAC, "" if it had none), {@code signed} (the names of the fields the MAC covers) and {@code mac}, an
 * HMAC-SHA256 over the previous record's MAC and this record's signed fields. A record altered or forged without
 * the key fails {@link #verify}; a record deleted from the middle leaves the next one pointing past its
 * neighbour ({@link AuditRecord.Seal#GAP}).
 * <p>
 * Give it to the dashboard's {@code LockManager} ({@code LockManager.Builder.auditSigner}); applications hold no
 * key. The key is secret: it is never shown by {@link #toString()}.
 */
public final class AuditSigner {
    /** Shortest key accepted: 32 bytes (256 bits), as long as the HMAC-SHA256 output. */
    public static final int MIN_KEY_BYTES = 32;

    private final byte[] key;

    private AuditSigner(byte[] key) {
        this.key = key;
    }

    /**
     * A signer with {@code key} (copied).
     *
     * @param key at least {@value #MIN_KEY_BYTES} random bytes
     * @return the signer
     * @throws IllegalArgumentException for a shorter key
     */
    public static AuditSigner of(byte[] key) {
        if (key == null || key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException("an audit key needs at least " + MIN_KEY_BYTES + " bytes, got "
                    + (key == null ? "none" : key.length + ""));
        }
        return new AuditSigner(key.clone());
    }

    /**
     * Seals {@code fields} after the record {@code prevId} whose MAC is {@code prevMac}: adds {@code prev},
     * {@code prevMac}, {@code signed} and {@code mac} to {@code fields} (in place).
     *
     * @param fields  the record's fields (every one of them is signed)
     * @param prevId  stream id of the current last record, {@code 0-0} when there is none
     * @param prevMac that record's {@code mac}, "" when it has none
     */
    public void seal(Map<String, String> fields, String prevId, String prevMac) {
        fields.remove("mac");
        fields.put("prev", prevId);
        fields.put("prevMac", prevMac == null ? "" : prevMac);
        List<String> names = new ArrayList<>(fields.keySet());
        names.remove("signed");
        fields.put("signed", String.join(",", names));
        fields.put("mac", mac(fields));
    }

    /**
     * Whether {@code fields} carry a MAC this key made over the fields they name as signed.
     *
     * @param fields a record's fields as stored
     * @return false when the MAC is missing or does not match (altered, or made without this key)
     */
    public boolean verify(Map<String, String> fields) {
        String mac = fields.get("mac");
        return mac != null
                && fields.containsKey("signed")
                && MessageDigest.isEqual(
                        mac.getBytes(StandardCharsets.US_ASCII), mac(fields).getBytes(StandardCharsets.US_ASCII));
    }

    /** HMAC-SHA256 over prevMac, then each signed field (and the list itself) as length-prefixed name and value. */
    private String mac(Map<String, String> fields) {
        try {
            Mac m = Mac.getInstance("HmacSHA256");
            m.init(new SecretKeySpec(key, "HmacSHA256"));
            update(m, fields.getOrDefault("prevMac", ""));
            update(m, fields.get("signed"));
            for (String name : fields.get("signed").split(",", -1)) {
                update(m, name);
                update(m, fields.getOrDefault(name, "\u0000absent"));
            }
            return HexFormat.of().formatHex(m.doFinal());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    private static void update(Mac m, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        m.update(Integer.toString(b.length).getBytes(StandardCharsets.US_ASCII));
        m.update((byte) ':');
        m.update(b);
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "AuditSigner[key hidden, " + key.length + " bytes, fingerprint "
                + HexFormat.of().formatHex(Arrays.copyOf(sha256(key), 4)) + "]";
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
