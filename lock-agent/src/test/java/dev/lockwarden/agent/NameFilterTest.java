package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lockwarden.agent.config.AgentConfigParser;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The raw-name pre-filter every loaded class meets: it must let through every class a rule can name (Byte Buddy
 * decides exactly after it) and nothing else, so the other classes never reach Byte Buddy.
 */
class NameFilterTest {

    private static NameFilter filter(String... rules) throws Exception {
        return new NameFilter(AgentConfigParser.parse("n.conf", List.of(rules)).rules());
    }

    @Test
    void exactNamesPassOnlyThemselves() throws Exception {
        NameFilter f = filter("com.acme.Billing#charge key=\"a\"", "com.acme.Outer$Inner#run key=\"b\"");
        assertTrue(f.mayMatch("com/acme/Billing"));
        assertTrue(f.mayMatch("com/acme/Outer$Inner"));
        assertFalse(f.mayMatch("com/acme/BillingX"));
        assertFalse(f.mayMatch("com/acme/Billing$1"));
        assertFalse(f.mayMatch("com/acme/sub/Billing"));
        assertFalse(f.mayMatch("org/other/App"));
        assertFalse(f.mayMatch(null));
    }

    @Test
    void wildcardsMatchWithinOnePackageLevelLikeTheRules() throws Exception {
        NameFilter f = filter("com.acme.jobs.*Job#run key=\"j\"");
        assertTrue(f.mayMatch("com/acme/jobs/NightlyJob"));
        assertTrue(f.mayMatch("com/acme/jobs/Job"));
        assertFalse(f.mayMatch("com/acme/jobs/sub/WeeklyJob"), "* never crosses a package separator");
        assertFalse(f.mayMatch("com/acme/jobs/JobHelper"));
        assertFalse(f.mayMatch("com/acme/Job"));
    }

    @Test
    void subtypeRulesLetEveryApplicationClassThroughButNeverJdkOrLockwardenClasses() throws Exception {
        NameFilter f = filter("com.acme.PaymentHandler+#handle(..) key=\"p\"");
        assertTrue(f.mayMatch("org/anything/CardHandler"), "a subtype can have any name: Byte Buddy decides");
        for (String jdk : new String[] {
            "java/lang/String",
            "jdk/internal/misc/Unsafe",
            "sun/nio/ch/Util",
            "com/sun/jmx/Foo",
            "dev/lockwarden/agent/shaded/net/bytebuddy/ByteBuddy",
            "javax/sql/DataSource",
            "dev/lockwarden/LockManager",
            "dev/lockwarden/core/RedisLockStore"
        }) {
            assertFalse(f.mayMatch(jdk), jdk);
        }
    }

    @Test
    void aPathologicalPatternDoesNotSlowTheFilter() throws Exception {
        NameFilter f = filter("com.acme.a*a*a*a*a*a*a*a*b#run key=\"x\"");
        String name = "com/acme/" + "a".repeat(20_000);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(1), () -> {
            for (int i = 0; i < 10; i++) {
                assertFalse(f.mayMatch(name));
            }
        });
        assertTrue(f.mayMatch(name + "b"));
    }
}
