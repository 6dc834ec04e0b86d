package dev.lockwarden.store;

import dev.lockwarden.LockSource;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What varies per lock in its holder info, and the one codec for the {@code lock:{name}:info} hash.
 * What is the same for every lock of a JVM (application, host, pid) is stored once per JVM instead
 * ({@link JvmRecord}), so the acquire script writes two fields instead of ten.
 * <p>
 * The hash holds {@value #FENCE} (the fencing token, also rewritten by Redlock's phase 2) and
 * {@value #PACKED}: {@code jvmId US acquiredAt US source US method US thread} (US = U+001F; the
 * thread name comes last, so whatever it contains cannot shift another field). Hashes written by
 * older clients, one field each ({@code app}, {@code host}, {@code pid}, {@code jvm}, {@code thread},
 * {@code source}, {@code method}, {@code acquiredAt}), are still read.
 *
 * @param jvmId        random id of the holder's {@code LockManager} (the key of its {@link JvmRecord} and heartbeat)
 * @param thread       name of the acquiring thread
 * @param source       the entry point that took the lock
 * @param method       the locked method for CDI/agent locks, else ""
 * @param acquiredAtMillis client clock at the attempt, ms since the epoch
 */
public record LockHolder(String jvmId, String thread, LockSource source, String method, long acquiredAtMillis) {
    /** Info hash field with the fence. */
    public static final String FENCE = "fence";
    /** Info hash field with the packed holder. */
    public static final String PACKED = "h";

    private static final char SEP = '\u001f';

    public LockHolder {
        jvmId = jvmId == null ? "" : jvmId;
        thread = thread == null ? "" : thread;
        source = source == null ? LockSource.API : source;
        method = method == null ? "" : method;
    }

    /** The value of the {@value #PACKED} field. */
    public String encode() {
        return new StringBuilder(jvmId.length() + thread.length() + method.length() + 24)
                .append(jvmId)
                .append(SEP)
                .append(acquiredAtMillis)
                .append(SEP)
                .append(source.name())
                .append(SEP)
                .append(method)
                .append(SEP)
                .append(thread)
                .toString();
    }

    /**
     * {@link #encode()} as UTF-8, built for the acquire script without the String in between: what
     * stays the same for a thread (JVM id, source, method, thread name) is encoded once per thread
     * and reused while it does not change; only acquired-at is written per call.
     */
    public byte[] encodeUtf8() {
        Parts p = PARTS.get();
        if (p.jvmId != jvmId || p.thread != thread || p.source != source || p.method != method) {
            p = new Parts(jvmId, thread, source, method);
            PARTS.set(p);
        }
        byte[] at = Long.toString(acquiredAtMillis).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[p.head.length + at.length + p.tail.length];
        System.arraycopy(p.head, 0, out, 0, p.head.length);
        System.arraycopy(at, 0, out, p.head.length, at.length);
        System.arraycopy(p.tail, 0, out, p.head.length + at.length, p.tail.length);
        return out;
    }

    private static final ThreadLocal<Parts> PARTS = ThreadLocal.withInitial(() -> new Parts(null, null, null, null));

    /** The encoded parts of a packed holder around acquired-at, kept per thread (compared by identity). */
    private static final class Parts {
        final String jvmId;
        final String thread;
        final LockSource source;
        final String method;
        final byte[] head;
        final byte[] tail;

        Parts(String jvmId, String thread, LockSource source, String method) {
            this.jvmId = jvmId;
            this.thread = thread;
            this.source = source;
            this.method = method;
            this.head = jvmId == null ? new byte[0] : (jvmId + SEP).getBytes(StandardCharsets.UTF_8);
            this.tail = jvmId == null
                    ? new byte[0]
                    : (SEP + source.name() + SEP + method + SEP + thread).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The holder in an info hash (packed or, from an older client, one field each); empty fields when missing. */
    public static LockHolder decode(Map<String, String> info) {
        String packed = info.get(PACKED);
        if (packed == null) {
            return new LockHolder(
                    info.get("jvm"),
                    info.get("thread"),
                    source(info.get("source")),
                    info.get("method"),
                    parseLong(info.get("acquiredAt")));
        }
        return decode(packed);
    }

    /** The holder from a {@value #PACKED} value. */
    public static LockHolder decode(String packed) {
        String[] p = packed.split(String.valueOf(SEP), 5);
        return new LockHolder(
                p[0],
                p.length > 4 ? p[4] : "",
                p.length > 2 ? source(p[2]) : LockSource.API,
                p.length > 3 ? p[3] : "",
                p.length > 1 ? parseLong(p[1]) : 0);
    }

    private static LockSource source(String s) {
        try {
            return s == null ? LockSource.API : LockSource.valueOf(s);
        } catch (IllegalArgumentException e) {
            return LockSource.API;
        }
    }

    private static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
