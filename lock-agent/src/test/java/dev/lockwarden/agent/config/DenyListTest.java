package dev.lockwarden.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules are refused by what their class pattern can match, not by how it is spelled. */
class DenyListTest {
    private static String problems(String... lines) {
        return String.join(
                "\n",
                assertThrows(AgentConfigException.class, () -> AgentConfigParser.parse("locks.conf", List.of(lines)))
                        .problems());
    }

    @Test
    void patternsThatCanMatchJdkOrLockwardenClassesAreRefusedWithTheirLine() {
        String all = problems(
                "dev.lockwarde*.LockManager#* key=\"x\"",
                "dev.*.LockManager#acquire key=\"x\"",
                "*#run key=\"x\"",
                "com.*.Foo#run key=\"x\"",
                "com.su*.misc.Unsafe#run key=\"x\"",
                "javax.*.Foo#run key=\"x\"",
                "dev.lockwarden.agent.LockAgent#premain key=\"x\"",
                "sun.misc.Unsafe#park key=\"x\"",
                "jdk.*.Foo#run key=\"x\"",
                "dev.*.*.LockManager#run key=\"x\"");
        for (int line = 1; line <= 10; line++) {
            assertTrue(all.contains("locks.conf:" + line + ": "), "line " + line + " refused\n" + all);
        }
        assertTrue(
                all.contains(
                        "locks.conf:1: class pattern dev.lockwarde*.LockManager can match classes of dev.lockwarden.*"),
                all);
        assertTrue(
                all.contains("locks.conf:2: class pattern dev.*.LockManager can match classes of dev.lockwarden.*"),
                all);
        assertTrue(all.contains("locks.conf:4: class pattern com.*.Foo can match classes of com.sun.*"), all);
        assertTrue(all.contains("locks.conf:7: class dev.lockwarden.agent.LockAgent cannot be locked"), all);
        assertEquals(10, all.lines().count(), all);
    }

    @Test
    void patternsThatStayOutsideAreAccepted() throws Exception {
        AgentConfig c = AgentConfigParser.parse(
                "locks.conf",
                List.of(
                        "com.acme.*.Job#run key=\"x\"",
                        "dev.other.LockManager#run key=\"x\"",
                        "dev.lockwardenx.Foo#run key=\"x\"",
                        "com.sunny.Foo#run key=\"x\"",
                        "devx.*.Foo#run key=\"x\"",
                        "dev.*#run key=\"x\""));
        assertEquals(6, c.rules().size());
    }

    @Test
    void canMatchInFollowsPackageLevels() {
        assertTrue(Names.canMatchIn("dev.lock*.X", "dev.lockwarden."));
        assertTrue(Names.canMatchIn("dev.*.*", "dev.lockwarden."));
        assertFalse(Names.canMatchIn("dev.*", "dev.lockwarden."), "dev.* names classes of package dev only");
        assertFalse(Names.canMatchIn("dev.lockwarden", "dev.lockwarden."), "a class named lockwarden in package dev");
        assertFalse(Names.canMatchIn("dev.lockwardenx.X", "dev.lockwarden."));
        assertTrue(Names.canMatchIn("com.*.Foo", "com.sun."));
    }

    @Test
    void digitsAreAsciiDigitsOnly() {
        assertTrue(Names.digits("012"));
        assertFalse(Names.digits(""));
        assertFalse(Names.digits("1a"));
        assertFalse(Names.digits("\u0661"), "an Arabic-Indic digit is not an index");
    }
}
