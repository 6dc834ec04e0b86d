package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigParser;
import dev.lockwarden.agent.config.LockRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Failure paths that need no Redis: the runtime fails closed and never runs the body unlocked. */
class AgentRuntimeTest {

    private static AgentRuntime runtime(String redis) throws Exception {
        AgentConfig c = AgentConfigParser.parse("t.conf", List.of("redis = " + redis, "com.acme.X#a key=\"x:{0}\""));
        return new AgentRuntime(c);
    }

    private static LockRule rule(String line) throws Exception {
        return AgentConfigParser.parse("t.conf", List.of(line)).rules().get(0);
    }

    @Test
    void unreachableRedisFailsTheCallWithLockStoreException() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(
                rule("com.acme.X#a key=\"x:{0}\""),
                "com.acme.X#a(I)V",
                "com.acme.X#a",
                KeyTemplate.parse("x:{0}", List.of("n")),
                null);
        Object state = r.enter(id, new Object[] {1});
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, state);
        assertInstanceOf(LockStoreException.class, skip.failure);
        assertSame(skip.failure, r.exit(state, null), "exit throws the failure into the caller");
        long t0 = System.nanoTime();
        LockBridge.Skip again = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {2}));
        assertSame(skip.failure, again.failure, "within a second the same failure is reused");
        assertTrue(System.nanoTime() - t0 < 500_000_000L);
        assertTrue(r.drain.running() == 0, "a failed call is not counted as running");
    }

    @Test
    void onStoreDownSkipSkipsQuietlyUnderSkip() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(
                rule("com.acme.X#a key=\"x:{0}\" onBusy=SKIP onStoreDown=skip"),
                "com.acme.X#a(I)V",
                "com.acme.X#a",
                KeyTemplate.parse("x:{0}", List.of("n")),
                null);
        Object state = r.enter(id, new Object[] {1});
        assertSame(LockBridge.Skip.QUIETLY, state);
        assertSame(null, r.exit(state, null));
        assertTrue(r.stats.storeDown.sum() == 1);
    }

    @Test
    void nullKeyArgumentFailsTheCall() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(
                rule("com.acme.X#a key=\"x:{0}\""),
                "com.acme.X#a(Ljava/lang/String;)V",
                "com.acme.X#a",
                KeyTemplate.parse("x:{0}", List.of("s")),
                null);
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {null}));
        assertInstanceOf(IllegalArgumentException.class, skip.failure);
        assertTrue(skip.failure.getMessage().contains("is null for this call"), skip.failure.getMessage());
    }

    @Test
    void aKeyRejectedAtInstrumentationFailsEveryCall() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(
                rule("com.acme.X#a key=\"x:{0}\""),
                "com.acme.X#a(Lcom/acme/P;)V",
                "com.acme.X#a",
                null,
                "t.conf:1: {0} is a com.acme.P, which does not override toString()");
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {new Object()}));
        assertInstanceOf(IllegalStateException.class, skip.failure);
        assertTrue(
                skip.failure.getMessage().contains("does not override toString()")
                        && skip.failure.getMessage().contains("calls to com.acme.X#a fail"),
                skip.failure.getMessage());
    }

    @Test
    void afterShutdownBeganNewCallsFailFast() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(
                rule("com.acme.X#a key=\"x:{0}\""),
                "com.acme.X#a(I)V",
                "com.acme.X#a",
                KeyTemplate.parse("x:{0}", List.of("n")),
                null);
        r.drain.close();
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {1}));
        assertTrue(skip.failure.getMessage().contains("the JVM is shutting down"), skip.failure.getMessage());
    }

    @Test
    void withoutADispatcherTheBridgeFailsTheCall() {
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, LockBridge.enter(0, new Object[0]));
        assertTrue(skip.failure.getMessage().contains("does not run unlocked"), skip.failure.getMessage());
        assertSame(skip.failure, LockBridge.exit(skip, null));
    }
}
