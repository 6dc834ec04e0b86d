package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockStoreException;
import dev.lockwarden.agent.bootstrap.LockBridge;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.AgentConfigParser;

/** Failure paths that need no Redis: the runtime fails closed and never runs the body unlocked. */
class AgentRuntimeTest {

    private static AgentRuntime runtime(String redis) throws Exception {
        AgentConfig c = AgentConfigParser.parse("t.conf", List.of("redis = " + redis, "com.acme.X#a key=\"x:{0}\""));
        return new AgentRuntime(c);
    }

    @Test
    void unreachableRedisFailsTheCallWithLockStoreException() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(AgentConfigParser.parse("t.conf", List.of("com.acme.X#a key=\"x:{0}\"")).rules().get(0),
                "com.acme.X#a(I)V", KeyTemplate.parse("x:{0}", List.of("n")));
        Object state = r.enter(id, new Object[] {1});
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, state);
        assertInstanceOf(LockStoreException.class, skip.failure);
        assertSame(skip.failure, r.exit(state, null), "exit throws the failure into the caller");
        long t0 = System.nanoTime();
        LockBridge.Skip again = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {2}));
        assertSame(skip.failure, again.failure, "within a second the same failure is reused");
        assertTrue(System.nanoTime() - t0 < 500_000_000L);
    }

    @Test
    void nullKeyArgumentFailsTheCall() throws Exception {
        AgentRuntime r = runtime("redis://127.0.0.1:1");
        int id = r.register(AgentConfigParser.parse("t.conf", List.of("com.acme.X#a key=\"x:{0}\"")).rules().get(0),
                "com.acme.X#a(Ljava/lang/String;)V", KeyTemplate.parse("x:{0}", List.of("s")));
        LockBridge.Skip skip = assertInstanceOf(LockBridge.Skip.class, r.enter(id, new Object[] {null}));
        assertInstanceOf(IllegalArgumentException.class, skip.failure);
        assertTrue(skip.failure.getMessage().contains("is null for this call"), skip.failure.getMessage());
    }
}
