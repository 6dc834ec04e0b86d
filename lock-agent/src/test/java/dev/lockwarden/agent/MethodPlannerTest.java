package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.legacy.Jobs;
import com.acme.legacy.KeyTypes;
import com.acme.legacy.pay.AbstractHandler;
import com.acme.legacy.pay.PaymentHandler;
import com.acme.legacy.pay.WireHandler;
import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.config.AgentConfigParser;
import java.util.List;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/** How rules become planned methods, on the real class files of test classes (no agent, no Redis). */
class MethodPlannerTest {

    private static MethodPlanner planner(String... rules) throws Exception {
        return new MethodPlanner(
                AgentConfigParser.parse("p.conf", List.of(rules)).rules());
    }

    private static Plan plan(MethodPlanner planner, Class<?> type) {
        TypePool pool = TypePools.of(type.getClassLoader());
        return planner.plan(pool.describe(type.getName()).resolve(), pool);
    }

    @Test
    void aMethodMatchedByTwoRulesFailsInsteadOfTakingOneOfThem() throws Exception {
        Plan plan = plan(
                planner("com.acme.legacy.Jobs#report key=\"a:{0}\"", "com.acme.legacy.Job*#rep* key=\"b:{0}\""),
                Jobs.class);
        assertEquals(1, plan.methods().size(), plan.toString());
        String problem = plan.methods().get(0).problem();
        assertTrue(
                problem != null
                        && problem.startsWith(
                                "p.conf:1 and p.conf:2: rules com.acme.legacy.Jobs#report and com.acme.legacy.Job*#rep*"
                                        + " both match com.acme.legacy.Jobs#report(java.lang.String) — make the patterns disjoint"),
                problem);
    }

    @Test
    void subtypeRulesLockDeclaredBodiesOnlyNeverAbstractMethods() throws Exception {
        MethodPlanner p = planner("com.acme.legacy.pay.PaymentHandler+#handle(..) key=\"pay:{class}:{0.id}\"");
        assertTrue(plan(p, PaymentHandler.class).isEmpty(), "the interface's abstract method is not planned");
        assertTrue(plan(p, WireHandler.class).isEmpty(), "inherits the body, declares nothing");
        Plan base = plan(p, AbstractHandler.class);
        assertEquals(1, base.methods().size());
        assertNull(base.methods().get(0).problem());
        assertEquals("pay:AbstractHandler:{0.id}", base.methods().get(0).key().toString());
    }

    @Test
    void keysThatWouldNotExcludeAnythingAreRejected() throws Exception {
        Plan objects = plan(planner("com.acme.legacy.KeyTypes#take key=\"k:{0}\""), KeyTypes.class);
        assertEquals(3, objects.methods().size());
        for (var m : objects.methods()) {
            String params =
                    RuleMatchers.typeName(m.method().getParameters().get(0).getType());
            switch (params) {
                case "java.lang.Object" ->
                    assertTrue(m.problem().contains("does not override toString()"), m.problem());
                case "int[]" -> assertTrue(m.problem().contains("is an array"), m.problem());
                default -> assertNull(m.problem(), "interfaces: the implementation decides (" + params + ")");
            }
        }
    }
}
