package dev.lockwarden.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;

/**
 * The plain snippet everyone copies: {@code SET key token NX PX ttl}, then a Lua token-checked
 * {@code DEL}, with a pooled Jedis {@code RedisClient}. No fencing, no holder info, no watchdog.
 * Over several nodes it is the textbook Redlock without retries: all nodes in parallel (or one
 * after another), success on a majority.
 */
final class SnippetContender implements Contender {
    static final String RELEASE =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
    private static final SetParams NX_PX = SetParams.setParams().nx().px(30_000);

    /** How a multi-node cycle talks to its nodes. */
    enum Mode {
        SINGLE,
        PARALLEL,
        SEQUENTIAL
    }

    private final List<Integer> ports;
    private final Mode mode;
    private final List<RedisClient> nodes = new ArrayList<>();
    private final List<String> shas = new ArrayList<>();
    private ExecutorService pool;

    SnippetContender(List<Integer> ports, Mode mode) {
        this.ports = List.copyOf(ports);
        this.mode = mode;
    }

    @Override
    public String name() {
        return switch (mode) {
            case SINGLE -> "plain snippet (SET NX PX + Lua DEL)";
            case PARALLEL -> "plain snippet, " + ports.size() + " nodes in parallel";
            case SEQUENTIAL -> "plain snippet, " + ports.size() + " nodes one after another";
        };
    }

    @Override
    public void setUp() {
        for (int p : ports) {
            RedisClient c = Pools.jedis(p);
            nodes.add(c);
            shas.add(c.scriptLoad(RELEASE));
        }
        if (mode == Mode.PARALLEL) {
            pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "snippet-fanout");
                t.setDaemon(true);
                return t;
            });
        }
    }

    @Override
    public boolean cycle(String key, Runnable body) {
        String token = Long.toHexString(ThreadLocalRandom.current().nextLong())
                + Long.toHexString(ThreadLocalRandom.current().nextLong());
        boolean[] got = acquireAll(key, token);
        int n = 0;
        for (boolean g : got) {
            n += g ? 1 : 0;
        }
        if (n <= nodes.size() / 2) {
            if (n > 0) {
                releaseAll(key, token);
            }
            return false;
        }
        try {
            body.run();
        } finally {
            releaseAll(key, token);
        }
        return true;
    }

    private boolean[] acquireAll(String key, String token) {
        boolean[] got = new boolean[nodes.size()];
        if (mode != Mode.PARALLEL) {
            for (int i = 0; i < got.length; i++) {
                got[i] = "OK".equals(nodes.get(i).set(key, token, NX_PX));
            }
            return got;
        }
        List<CompletableFuture<Void>> fs = new ArrayList<>(got.length);
        for (int i = 1; i < got.length; i++) {
            int node = i;
            fs.add(CompletableFuture.runAsync(
                    () -> got[node] = "OK".equals(nodes.get(node).set(key, token, NX_PX)), pool));
        }
        got[0] = "OK".equals(nodes.get(0).set(key, token, NX_PX)); // the caller takes node 0 itself
        fs.forEach(CompletableFuture::join);
        return got;
    }

    private void releaseAll(String key, String token) {
        if (mode != Mode.PARALLEL) {
            for (int i = 0; i < nodes.size(); i++) {
                release(i, key, token);
            }
            return;
        }
        List<CompletableFuture<Void>> fs = new ArrayList<>(nodes.size());
        for (int i = 1; i < nodes.size(); i++) {
            int node = i;
            fs.add(CompletableFuture.runAsync(() -> release(node, key, token), pool));
        }
        release(0, key, token);
        fs.forEach(CompletableFuture::join);
    }

    private void release(int node, String key, String token) {
        try {
            nodes.get(node).evalsha(shas.get(node), List.of(key), List.of(token));
        } catch (JedisNoScriptException e) {
            nodes.get(node).eval(RELEASE, List.of(key), List.of(token));
        }
    }

    /** Tight polling: retries at once until acquired or the wait is over (what a naive caller writes). */
    @Override
    public boolean waitingCycle(String key, long maxWaitMillis, Runnable body) throws Exception {
        return pollingCycle(key, maxWaitMillis, body);
    }

    @Override
    public String waitStyle() {
        return "tight polling";
    }

    @Override
    public Set<String> plainCommands() {
        return Set.of("set");
    }

    @Override
    public void tearDown() {
        if (pool != null) {
            pool.shutdownNow();
        }
        nodes.forEach(RedisClient::close);
    }
}
