package dev.lockwarden.inspect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.lockwarden.ForceReleaseResult;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.store.KeySpace;
import dev.lockwarden.store.RedisNodeClient;
import redis.clients.jedis.params.XAddParams;

/**
 * Runs force-release.lua on every node, in parallel (one node: directly), and folds the answers: a
 * majority of nodes must answer, and the lock counts as released when a majority released it (a
 * minority holding the seen token is a stale leftover; the new holder keeps the lock). Over
 * Redlock every node's counter is then lifted to the highest, so no node lags behind the bump.
 */
final class ForceRelease {
    /** Entries kept in each lock's own history stream. */
    static final long HISTORY_MAX_LEN = 100;
    private static final long NODE_TIMEOUT_SECONDS = 10;
    private static final ExecutorService PARALLEL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lockwarden-force-release");
        t.setDaemon(true);
        return t;
    });

    private final List<RedisNodeClient> nodes;
    private final long auditMaxLen;
    private final int quorum;

    ForceRelease(List<RedisNodeClient> nodes, long auditMaxLen) {
        this.nodes = nodes;
        this.auditMaxLen = auditMaxLen;
        this.quorum = nodes.size() / 2 + 1;
    }

    /**
     * @param tokenSha1 "" = whoever holds it; @param fence 0 = any fence
     * @param holder    who holds it as the caller read it (null = unknown): the lock's info hash has only
     *                  the per-lock part, so the audit record gets application, host and pid from here
     */
    ForceReleaseResult run(String name, String tokenSha1, long fence, String operator, dev.lockwarden.HolderInfo holder) {
        if (operator == null || operator.isBlank()) {
            throw new IllegalArgumentException("force-release of '" + name + "' needs the operator's name for the audit record");
        }
        Map<String, String> audit = new LinkedHashMap<>();
        audit.put("name", name);
        audit.put("operator", operator);
        audit.put("at", Long.toString(System.currentTimeMillis()));
        if (holder != null && !holder.application().isEmpty()) {
            audit.put("holder.app", holder.application());
            audit.put("holder.host", holder.host());
            audit.put("holder.pid", Long.toString(holder.pid()));
        }
        List<RedisNodeClient.ForceReleased> replies = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Object r : onEveryNode(n -> n.forceRelease(name, tokenSha1, fence, audit, auditMaxLen, HISTORY_MAX_LEN))) {
            if (r instanceof RedisNodeClient.ForceReleased f) {
                replies.add(f);
            } else {
                failures.add(String.valueOf(r));
            }
        }
        if (nodes.size() - failures.size() < quorum || (nodes.size() == 1 && !failures.isEmpty())) {
            throw new LockStoreException("cannot force-release '" + name + "': " + failures.size() + " of " + nodes.size()
                    + " Redis nodes failed: " + String.join("; ", failures));
        }
        long newFence = 0;
        List<Long> oldFences = new ArrayList<>();
        int released = 0;
        String auditId = null;
        for (RedisNodeClient.ForceReleased r : replies) {
            newFence = Math.max(newFence, r.newFence());
            if (r.released()) {
                released++;
                oldFences.add(r.oldFence());
                auditId = auditId == null ? r.auditId() : auditId;
            }
        }
        long oldFence = AgreedFence.of(oldFences);
        if (nodes.size() > 1) {
            long highest = newFence;
            onEveryNode(n -> n.raiseFence(name, "", highest)); // a node that is down is covered by the majority argument
        }
        recordEvent(name, operator, oldFence, audit.get("at"), released >= quorum);
        return released >= quorum ? new ForceReleaseResult(name, true, oldFence, newFence, auditId)
                : new ForceReleaseResult(name, false, 0, newFence, null);
    }

    /** The global events stream (best effort: the audit record is already written atomically). */
    private void recordEvent(String name, String operator, long oldFence, String at, boolean released) {
        if (!released) {
            return;
        }
        RedisNodeClient first = nodes.get(0);
        try {
            first.call("write event", () -> first.redis().xadd(KeySpace.EVENTS, XAddParams.xAddParams(),
                    Map.of("type", "force-release", "name", name, "fence", Long.toString(oldFence), "operator", operator, "at", at)));
        } catch (LockStoreException e) {
            // the event stream is informative only
        }
    }

    /** Each node's answer, or its failure message, in node order. */
    private List<Object> onEveryNode(java.util.function.Function<RedisNodeClient, Object> call) {
        if (nodes.size() == 1) {
            try {
                return List.of(call.apply(nodes.get(0)));
            } catch (LockStoreException e) {
                return List.of(e.getMessage());
            }
        }
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        for (RedisNodeClient n : nodes) {
            futures.add(CompletableFuture.supplyAsync(() -> call.apply(n), PARALLEL));
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < futures.size(); i++) {
            try {
                out.add(futures.get(i).get(NODE_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            } catch (TimeoutException e) {
                out.add(nodes.get(i).address() + " did not answer within " + NODE_TIMEOUT_SECONDS + " s");
            } catch (java.util.concurrent.ExecutionException | CompletionException e) {
                out.add(e.getCause() instanceof LockStoreException l ? l.getMessage() : String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.add("interrupted");
            }
        }
        return out;
    }
}
