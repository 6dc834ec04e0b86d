package dev.lockwarden.inspect;

import dev.lockwarden.AuditRecord;
import dev.lockwarden.AuditRecord.Seal;
import dev.lockwarden.AuditSigner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The seal of each audit record read ({@link AuditSigner}): its own MAC, and its link to the record before it in
 * the stream ({@code prev} and {@code prevMac} must name that record). The oldest record read has no neighbour
 * to compare with: only its MAC is checked. Over Redlock every node's records are merged ({@link #merge}).
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

    /**
     * Every node's records (Redlock: each node has its own stream and chain) as one list, newest first: a
     * force-release written on several nodes (same time, lock and operator) once, with the worst of its seals;
     * a record only some nodes have shows too.
     */
    static List<AuditRecord> merge(List<List<AuditRecord>> each, int max) {
        if (each.size() == 1) {
            return each.get(0);
        }
        Map<String, AuditRecord> byRelease = new LinkedHashMap<>();
        for (List<AuditRecord> node : each) {
            for (AuditRecord r : node) {
                byRelease.merge(
                        r.at().toEpochMilli() + "\u0000" + r.name() + "\u0000" + r.operator(),
                        r,
                        (a, b) -> rank(b.seal()) < rank(a.seal()) ? withSeal(a, b.seal()) : a);
            }
        }
        return byRelease.values().stream()
                .sorted(Comparator.comparing(AuditRecord::at).reversed())
                .limit(max)
                .toList();
    }

    /** Worst first: a broken seal or a gap on any node is what the operator must see. */
    private static int rank(Seal s) {
        return switch (s) {
            case BROKEN -> 0;
            case GAP -> 1;
            case UNSIGNED -> 2;
            case VALID -> 3;
            case UNCHECKED -> 4;
        };
    }

    private static AuditRecord withSeal(AuditRecord r, Seal seal) {
        return new AuditRecord(r.id(), r.at(), r.operator(), r.name(), r.oldHolder(), r.oldFence(), r.newFence(), seal);
    }

    private static boolean follows(Map<String, String> f, StreamEntry before) {
        return before.getID().toString().equals(f.get("prev"))
                && before.getFields().getOrDefault("mac", "").equals(f.get("prevMac"));
    }
}
