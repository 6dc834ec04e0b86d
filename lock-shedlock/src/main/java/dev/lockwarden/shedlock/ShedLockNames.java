package dev.lockwarden.shedlock;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Maps a ShedLock lock name (any non-empty string) to a Lockwarden lock name (no braces, no control
 * characters, not blank, at most 512 UTF-8 bytes). Names Lockwarden accepts stay as they are, except
 * that {@code %} is written {@code %25}: braces, control characters, {@code %} and the characters of a
 * blank name are percent-encoded as UTF-8 bytes, so two ShedLock names never share one lock. A name
 * still longer than 512 bytes keeps its first part and ends in {@code ~} and the SHA-256 of the whole
 * ShedLock name.
 */
final class ShedLockNames {
    static final int MAX_BYTES = 512;
    /** Bytes of a long name kept in front of its hash: readable on the dashboard, room for "~" + 64 hex digits. */
    private static final int KEPT_BYTES = 440;

    private ShedLockNames() {}

    static String lockName(String shedLockName) {
        boolean blank = shedLockName.isBlank();
        StringBuilder out = new StringBuilder(shedLockName.length() + 8);
        for (int i = 0; i < shedLockName.length(); ) {
            int cp = shedLockName.codePointAt(i);
            if (cp == '%' || cp == '{' || cp == '}' || Character.isISOControl(cp) || blank) {
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
                }
            } else {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        String mapped = out.toString();
        if (mapped.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES) {
            return mapped;
        }
        return prefix(mapped) + "~" + sha256(shedLockName);
    }

    /** The longest start of {@code mapped} within {@link #KEPT_BYTES}, cut between code points and outside a %XX escape. */
    private static String prefix(String mapped) {
        int end = 0;
        int bytes = 0;
        for (int i = 0; i < mapped.length(); ) {
            int cp = mapped.codePointAt(i);
            int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + len > KEPT_BYTES) {
                break;
            }
            bytes += len;
            i += Character.charCount(cp);
            end = i;
        }
        int pct = mapped.lastIndexOf('%', end - 1);
        if (pct >= 0 && end - pct < 3) {
            end = pct; // never half an escape
        }
        return mapped.substring(0, end);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e); // every Java SE has it
        }
    }

    /** The job name as the holder's method on the dashboard: control characters as '?', at most 200 characters. */
    static String shown(String shedLockName) {
        String s = shedLockName.replaceAll("\\p{Cntrl}", "?");
        return s.length() <= 200
                ? s
                : s.substring(0, s.offsetByCodePoints(0, Math.min(199, s.codePointCount(0, s.length())))) + "…";
    }
}
