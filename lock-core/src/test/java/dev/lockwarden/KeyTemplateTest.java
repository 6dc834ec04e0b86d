package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTemplateTest {
    record Customer(String id) {}

    record Order(long id, Customer customer) {}

    public static final class Bean {
        public String getRegion() {
            return "eu";
        }

        public boolean isUrgent() {
            return true;
        }
    }

    private static final List<String> PARAMS = List.of("paymentId", "order", "bean");

    @Test
    void rendersIndexesNamesAndPropertyPaths() {
        Object[] args = {"TX-123", new Order(42, new Customer("c-7")), new Bean()};
        assertEquals("payment:TX-123", KeyTemplate.parse("payment:{0}", PARAMS).render(args));
        assertEquals(
                "payment:TX-123",
                KeyTemplate.parse("payment:{paymentId}", PARAMS).render(args));
        assertEquals("TX-123", KeyTemplate.parse("{paymentId}", PARAMS).render(args));
        assertEquals(
                "order:42:c-7",
                KeyTemplate.parse("order:{order.id}:{1.customer.id}", PARAMS).render(args));
        assertEquals(
                "eu-true",
                KeyTemplate.parse("{bean.region}-{bean.urgent}", PARAMS).render(args));
        assertTrue(KeyTemplate.parse("cron:daily", PARAMS).isConstant());
        assertFalse(KeyTemplate.parse("x:{0}", PARAMS).isConstant());
    }

    @Test
    void invalidTemplatesFailAtParseTimeWithTheFix() {
        assertProblem("payment:{", "never closed");
        assertProblem("payment:}", "no matching '{'");
        assertProblem("payment:{}", "empty");
        assertProblem("payment:{3}", "refers to parameter 3 but the method has 3");
        assertProblem("payment:{amount}", "names no parameter; parameters are [paymentId, order, bean]");
        assertProblem("payment:{order..id}", "not a parameter index or name");
        assertProblem(" ", "blank");
    }

    @Test
    void nullValuesAndMissingPropertiesFailAtRenderTime() {
        KeyTemplate t = KeyTemplate.parse("p:{order.customer.id}", PARAMS);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> t.render(new Object[] {"x", null, null}));
        assertTrue(e.getMessage().contains("{order.customer.id} is null"), e.getMessage());
        KeyTemplate bad = KeyTemplate.parse("p:{order.amount}", PARAMS);
        e = assertThrows(
                IllegalArgumentException.class, () -> bad.render(new Object[] {"x", new Order(1, null), null}));
        assertTrue(e.getMessage().contains("no accessor amount()"), e.getMessage());
    }

    private static void assertProblem(String template, String expected) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> KeyTemplate.parse(template, PARAMS));
        assertTrue(e.getMessage().contains(expected), template + ": " + e.getMessage());
    }
}
