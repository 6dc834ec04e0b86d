package dev.lockwarden.inspect;

import dev.lockwarden.AuditRecord.Seal;
import dev.lockwarden.AuditSigner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The seal of each audit record read ({@link AuditSigner}): its own MAC, and its link to the record before it in
 * the stream ({@code prev} and {@code prevMac} must name that record). The oldest record read has no neighbour
 * to compare with: only its MAC is checked.
 */
final class AuditSeals {
    private AuditSeals() {}

    /** One seal per entry of {@code newestFirst}, in the same order; all UNCHECKED without a signer. */
    static List<Seal> of(List<StreamEntry> newestFirst, AuditSigner signer) {
        List<Seal> out = new ArrayList<>(newestFirst.size());
        for (int i = 0; i < newestFirst.size(); i++) {
            Map<String, String> f = newestFirst.get(i).getFields();
            if (signer == null) {
                out.add(Seal.UNCHECKED);
            } else if (!f.containsKey("mac")) {
                out.add(Seal.UNSIGNED);
            } else if (!signer.verify(f)) {
                out.add(Seal.BROKEN);
            } else if (i + 1 < newestFirst.size() && !follows(f, newestFirst.get(i + 1))) {
                out.add(Seal.GAP);
            } else {
                out.add(Seal.VALID);
            }
        }
        return out;
    }

    private static boolean follows(Map<String, String> f, StreamEntry before) {
        return before.getID().toString().equals(f.get("prev"))
                && before.getFields().getOrDefault("mac", "").equals(f.get("prevMac"));
    }
}
