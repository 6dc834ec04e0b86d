package dev.lockwarden.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.OnBusy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentConfigParserTest {

    private static AgentConfig parse(String... lines) throws AgentConfigException {
        return AgentConfigParser.parse("locks.conf", List.of(lines));
    }

    private static List<String> problems(String... lines) {
        return assertThrows(AgentConfigException.class, () -> parse(lines)).problems();
    }

    @Test
    void parsesSettingsAndRules() throws Exception {
        AgentConfig c = parse(
                "# comment",
                "",
                "  redis = redis://127.0.0.1:6379",
                "lockwarden.application=billing",
                "com.acme.Billing#charge(java.lang.String, long[], com.acme.Outer$Inner) key=\"pay ment:{0} \\\"x\\\"\" ttl=30s wait=2s onBusy=skip autoRefresh=false",
                "com.acme.Billing#refund key=\"refund:{id}\"");
        assertEquals("redis://127.0.0.1:6379", c.settings().get("lockwarden.redis"));
        assertEquals("billing", c.settings().get("lockwarden.application"));
        LockRule charge = c.rules().get(0);
        assertEquals("locks.conf:5", charge.where());
        assertEquals("com.acme.Billing#charge", charge.methodId());
        assertEquals(
                Optional.of(List.of("java.lang.String", "long[]", "com.acme.Outer$Inner")), charge.parameterTypes());
        assertEquals("pay ment:{0} \"x\"", charge.key());
        assertEquals(OnBusy.SKIP, charge.onBusy());
        LockOptions o = charge.options(LockOptions.defaults(), "com.acme.Billing#charge");
        assertEquals(Duration.ofSeconds(30), o.ttl());
        assertEquals(Duration.ofSeconds(2), o.waitUpTo());
        assertEquals(false, o.autoRefresh());
        assertEquals(LockSource.AGENT, o.source());
        assertEquals("com.acme.Billing#charge", o.method());
        LockRule refund = c.rules().get(1);
        assertEquals(Optional.empty(), refund.parameterTypes());
        assertEquals(OnBusy.FAIL, refund.onBusy());
        LockOptions d = refund.options(
                LockOptions.ttl(Duration.ofSeconds(7)).waitUpTo(Duration.ofSeconds(1)), "com.acme.Billing#refund");
        assertEquals(Duration.ofSeconds(7), d.ttl(), "unset TTL comes from the manager's defaults");
        assertEquals(Duration.ofSeconds(1), d.waitUpTo());
        assertTrue(d.autoRefresh());
    }

    @Test
    void tlsLinesAreAcceptedAndTheirStoresCheckedWhileParsing() throws Exception {
        AgentConfig ok =
                parse("redis = rediss://127.0.0.1:6380", "tls.trust-store-type = JKS", "com.acme.X#a key=\"x\"");
        assertEquals("JKS", ok.settings().get("lockwarden.tls.trust-store-type"), "a type alone opens no store");
        String missing = String.join(
                "\n",
                problems(
                        "lockwarden.tls.key-store = /no/such/client.p12",
                        "tls.key-store-password = Pa/ss@w+rd",
                        "com.acme.X#a key=\"x\""));
        assertTrue(
                missing.contains(
                        "locks.conf:1: /no/such/client.p12 (locks.conf:1 tls.key-store): no such file, fix the path"),
                missing);
        assertFalse(missing.contains("Pa/ss@w+rd"), missing);
        String orphan = String.join("\n", problems("tls.trust-store-password = Pa/ss@w+rd", "com.acme.X#a key=\"x\""));
        assertTrue(orphan.contains("locks.conf:1: a lockwarden.tls.*-password is set but neither"), orphan);
        assertFalse(orphan.contains("Pa/ss@w+rd"), orphan);
        assertFalse(ok.toString().contains("6380"), "toString lists setting names, never values: " + ok);
    }

    @Test
    void reportsEveryProblemWithFileLineAndFix() {
        List<String> p = problems(
                "ttl = 2 days",
                "colour = blue",
                "redis = redis://a:1",
                "redis = redis://b:1",
                "com.acme.X#a key=\"{0}\" onbusy=FAIL",
                "com.acme.X#b key=\"x\" ttl=2d",
                "com.acme.X#c(java.lang.String...) key=\"{0}\" wait=-PT1S",
                "com.acme.X#<init> key=\"x\"",
                "java.lang.String#length key=\"x\"",
                "com.acme.X#d ttl=1s",
                "com.acme.X#e(int) key=\"{a}{b}\"",
                "com.acme.X#f key=\"x\" key=\"y\" stray",
                "just some words",
                "com.acme.X#g(int key=\"x\"");
        String all = String.join("\n", p);
        for (String expected : List.of(
                "locks.conf:1: ttl = '2 days' is not a duration: write e.g. 500ms",
                "locks.conf:2: unknown setting 'colour' — use one of redis, redlock, cluster",
                "locks.conf:4: setting 'redis' is already set on line 3 — keep one of them",
                "locks.conf:5: unknown option 'onbusy' (did you mean 'onBusy'?)",
                "locks.conf:6: ttl PT48H is longer than PT24H",
                "locks.conf:7: varargs parameter 'java.lang.String...' — write it as an array: java.lang.String[]",
                "locks.conf:7: wait PT-1S is negative",
                "locks.conf:8: constructors and static initialisers cannot be locked",
                "locks.conf:9: class java.lang.String cannot be locked",
                "locks.conf:10: rule for com.acme.X#d has no key — add key=",
                "locks.conf:11: key \"{a}{b}\" names 2 parameters but 1 are listed",
                "locks.conf:12: option key is given twice",
                "locks.conf:12: 'stray' is not an option",
                "locks.conf:13: 'just some words' is neither a setting (name = value) nor a rule",
                "locks.conf:14: parameter list '(int' is not closed")) {
            assertTrue(all.contains(expected), "missing: " + expected + "\nin:\n" + all);
        }
        assertEquals(15, p.size(), all);
    }

    @Test
    void duplicateAndOverlappingRules() {
        String all = String.join(
                "\n",
                problems(
                        "com.acme.X#a(int) key=\"x\"",
                        "com.acme.X#a( int ) key=\"y\"",
                        "com.acme.X#a key=\"z\"",
                        "com.acme.X#b key=\"z\"",
                        "com.acme.X#b(long) key=\"z\""));
        assertTrue(all.contains("locks.conf:2: duplicate rule for com.acme.X#a(int) (first on line 1)"), all);
        assertTrue(all.contains("locks.conf:3: rule for com.acme.X#a overlaps the rule on line 1"), all);
        assertTrue(all.contains("locks.conf:5: rule for com.acme.X#b(long) overlaps the rule on line 4"), all);
    }

    @Test
    void templatesAreCheckedAgainstListedParameterCount() {
        String all = String.join("\n", problems("com.acme.X#a(int) key=\"{1}\"", "com.acme.X#b() key=\"{0}\""));
        assertTrue(
                all.contains(
                        "locks.conf:1: lock name template \"{1}\": '{1}' refers to parameter 1 but the method has 1 parameter(s)"),
                all);
        assertTrue(
                all.contains(
                        "locks.conf:2: lock name template \"{0}\": '{0}' refers to parameter 0 but the method has 0 parameter(s)"),
                all);
    }

    @Test
    void namedPlaceholdersWaitForTheClassToLoad() throws Exception {
        assertEquals(
                1, parse("com.acme.X#a key=\"order:{order.id}:{1}\"").rules().size());
    }

    @Test
    void emptyConfigAndTopologyConflicts() {
        assertEquals(
                List.of("locks.conf: no lock rules — add a line such as "
                        + "com.acme.Billing#charge(java.lang.String) key=\"payment:{0}\" ttl=30s onBusy=FAIL"),
                problems("# nothing"));
        String all = String.join(
                "\n",
                problems(
                        "redis = redis://a:1",
                        "redlock = redis://a:1,redis://b:1,redis://c:1",
                        "com.acme.X#a key=\"x\""));
        assertTrue(all.contains("locks.conf:1: redis is set together with redlock — keep only one topology"), all);
    }

    @Test
    void sentinelAndReplicaAcknowledgement() throws Exception {
        AgentConfig c = parse(
                "sentinel = mymaster@redis://127.0.0.1:26379, redis://127.0.0.1:26380",
                "replica-acks = 1/100ms",
                "com.acme.X#a key=\"a\" ttl=10s replicaAcks=2/250ms",
                "com.acme.X#b key=\"b\" replicaAcks=off",
                "com.acme.X#c key=\"c\"");
        assertEquals(
                "mymaster@redis://127.0.0.1:26379, redis://127.0.0.1:26380",
                c.settings().get("lockwarden.sentinel"));
        assertEquals("1/100ms", c.settings().get("lockwarden.replica-acks"));
        LockOptions a = c.rules().get(0).options(LockOptions.defaults(), "com.acme.X#a");
        assertEquals(2, a.replicaAcks());
        assertEquals(Duration.ofMillis(250), a.replicaAcksTimeout());
        assertEquals(
                0,
                c.rules().get(1).options(LockOptions.defaults(), "com.acme.X#b").replicaAcks(),
                "off");
        assertEquals(
                -1,
                c.rules().get(2).options(LockOptions.defaults(), "com.acme.X#c").replicaAcks(),
                "no replicaAcks= leaves the manager's default");
    }

    @Test
    void badSentinelAndReplicaAcksAreReportedWithTheirLines() {
        String all = String.join(
                "\n",
                problems(
                        "sentinel = redis://:s3cret@127.0.0.1:26379",
                        "replica-acks = 1 replica",
                        "com.acme.X#a key=\"a\" replicaAcks=2",
                        "com.acme.X#b key=\"b\" replicaAcks=1/5s",
                        "com.acme.X#c key=\"c\" ttl=1s replicaAcks=1/1s",
                        "com.acme.X#d key=\"d\" replicaAcks=-1/100ms"));
        assertTrue(all.contains("locks.conf:1: sentinel must be the master's name, @, the sentinels' URIs"), all);
        assertTrue(all.contains("write e.g. sentinel = mymaster@redis://s1:26379"), all);
        assertFalse(all.contains("s3cret"), "the value may hold a password: " + all);
        assertTrue(all.contains("locks.conf:2: replica-acks = '1 replica' is not replicas/timeout"), all);
        assertTrue(all.contains("locks.conf:3: replicaAcks = '2' is not replicas/timeout"), all);
        assertTrue(all.contains("write e.g. replicaAcks=1/100ms"), all);
        assertTrue(
                all.contains("locks.conf:4: replicaAcks timeout 5000 ms is not shorter than the agent's Redis timeout"),
                all);
        assertTrue(all.contains("locks.conf:5: replicaAcks timeout PT1S is not shorter than the ttl PT1S"), all);
        assertTrue(all.contains("locks.conf:6: replicaAcks = '-1/100ms'"), all);
        assertEquals(6, all.lines().count(), all);
    }

    @Test
    void sentinelIsOneTopologyAndReplicaAcksIsRefusedOnRedlockOnly() throws AgentConfigException {
        String withRedis = String.join(
                "\n", problems("sentinel = mymaster@redis://a:26379", "redis = redis://a:1", "com.acme.X#a key=\"x\""));
        assertTrue(withRedis.contains("locks.conf:2: redis is set together with sentinel — keep only one"), withRedis);
        String withCluster = String.join(
                "\n",
                problems(
                        "sentinel = mymaster@redis://a:26379",
                        "cluster = redis://a:1,redis://b:1",
                        "com.acme.X#a key=\"x\""));
        assertTrue(withCluster.contains("locks.conf:2: both sentinel and cluster are set — choose one"), withCluster);
        String onRedlock = String.join(
                "\n",
                problems(
                        "redlock = redis://a:1,redis://b:1,redis://c:1",
                        "replica-acks = 1/100ms",
                        "com.acme.X#a key=\"x\" replicaAcks=1/100ms",
                        "com.acme.X#b key=\"y\" replicaAcks=off"));
        assertTrue(
                onRedlock.contains("locks.conf:2: replica-acks = 1/100ms asks for replica acknowledgement, which"
                        + " Lockwarden does not use with redlock"),
                onRedlock);
        assertTrue(onRedlock.contains("locks.conf:3: replicaAcks=1/100ms asks for replica acknowledgement"), onRedlock);
        assertEquals(2, onRedlock.lines().count(), "replicaAcks=off is fine anywhere: " + onRedlock);
        // Cluster waits for replicas: the same lines parse there
        AgentConfig onCluster = parse(
                "cluster = redis://a:1,redis://b:1",
                "replica-acks = 1/100ms",
                "com.acme.X#a key=\"x\" replicaAcks=1/100ms");
        assertEquals(1, onCluster.rules().size());
        String longerThanTtl =
                String.join("\n", problems("ttl = 1s", "replica-acks = 1/1500ms", "com.acme.X#a key=\"x\""));
        assertTrue(
                longerThanTtl.contains(
                        "locks.conf:2: replica-acks = 1/1500ms: the timeout is not shorter than ttl = 1s"),
                longerThanTtl);
    }

    @Test
    void aKeyPrefixOverlappingLockwardensOwnKeysIsAConfigProblem() throws AgentConfigException {
        String p = String.join("\n", problems("key-prefix = lockwarden:jvm:", "com.acme.X#a key=\"x\""));
        assertTrue(
                p.contains("locks.conf:1: key-prefix: key prefix 'lockwarden:jvm:' overlaps Lockwarden's own keys"), p);
        assertTrue(p.contains("write e.g. key-prefix = lock:"), p);
        assertEquals(
                1,
                parse("key-prefix = app1:lock:", "com.acme.X#a key=\"x\"")
                        .rules()
                        .size());
    }

    @Test
    void unreadableFileNamesThePath() {
        Path missing = Path.of("/nonexistent/locks.conf");
        AgentConfigException e = assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse(missing));
        assertTrue(e.getMessage().contains("/nonexistent/locks.conf: cannot read the file"), e.getMessage());
        assertTrue(e.getMessage().contains("LOCKWARDEN_AGENT_CONFIG"), e.getMessage());
    }

    @Test
    void patternsSubtypesAndPolicies() throws Exception {
        AgentConfig c = parse(
                "onConfigError = continue",
                "reportUnmatchedAfter = 5s",
                "drainTimeout = 2s",
                "com.acme.jobs.*Job#run* key=\"{class}:{method}\" onLost=throw",
                "com.acme.PaymentHandler+#handle(..) key=\"pay:{0.id}\" onBusy=SKIP onStoreDown=skip");
        assertTrue(c.agent().continueOnError());
        assertEquals(Duration.ofSeconds(5), c.agent().reportUnmatchedAfter());
        assertEquals(Duration.ofSeconds(2), c.agent().drainTimeout());
        LockRule jobs = c.rules().get(0);
        assertEquals("com.acme.jobs.*Job", jobs.className());
        assertEquals("run*", jobs.methodName());
        assertEquals(OnLost.THROW, jobs.onLost());
        assertEquals(OnStoreDown.FAIL, jobs.onStoreDown());
        assertTrue(!jobs.exactClass());
        LockRule handler = c.rules().get(1);
        assertTrue(handler.subtypes());
        assertEquals("com.acme.PaymentHandler", handler.className());
        assertEquals(Optional.empty(), handler.parameterTypes(), "(..) = every overload");
        assertEquals(OnStoreDown.SKIP, handler.onStoreDown());
        assertEquals(OnLost.LOG, handler.onLost(), "default");
    }

    @Test
    void badPatternsAndPoliciesAreReported() {
        String all = String.join(
                "\n",
                problems(
                        "*.acme.X#a key=\"x\"",
                        "com.acme.X#a key=\"x\" onBusy=FAIL onStoreDown=skip",
                        "com.acme.X#b key=\"x\" onLost=maybe",
                        "onConfigError = sometimes",
                        "drainTimeout = soon",
                        "com.acme.X#c key=\"x\" ttl=10s holdAtLeast=1m"));
        assertTrue(all.contains("locks.conf:1: '*.acme.X' is not a class name or pattern"), all);
        assertTrue(all.contains("locks.conf:2: onStoreDown=skip needs onBusy=SKIP"), all);
        assertTrue(all.contains("locks.conf:3: onLost=maybe is not one of [log, throw, interrupt]"), all);
        assertTrue(all.contains("locks.conf:4: onConfigError = 'sometimes' is not fail or continue"), all);
        assertTrue(all.contains("locks.conf:5: drainTimeout = 'soon' is not a duration"), all);
        assertTrue(all.contains("locks.conf:6: holdAtLeast PT1M is longer than ttl PT10S"), all);
    }

    @Test
    void brokenFileStillCarriesOnConfigError() {
        AgentConfigException e = assertThrows(
                AgentConfigException.class,
                () -> AgentConfigParser.parse("locks.conf", List.of("onConfigError = continue", "com.acme.X#a")));
        assertTrue(e.continueOnError());
        assertEquals(1, e.problems().size(), e.getMessage());
    }

    @Test
    void onLostInterruptNeedsAutoRefresh() throws Exception {
        assertEquals(
                OnLost.INTERRUPT,
                parse("com.acme.X#a key=\"x\" onLost=interrupt").rules().get(0).onLost());
        String all = String.join("\n", problems("com.acme.X#a key=\"x\" onLost=interrupt autoRefresh=false"));
        assertTrue(all.contains("locks.conf:1: onLost=interrupt needs autoRefresh"), all);
    }
}
