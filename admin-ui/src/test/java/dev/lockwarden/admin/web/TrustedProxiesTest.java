package dev.lockwarden.admin.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {
    private final TrustedProxies proxies = TrustedProxies.parse("127.0.0.1/32,10.0.0.0/8,::1", "test");

    @Test
    void anUntrustedPeerIsTheClientWhateverItForwards() {
        assertEquals("192.0.2.5", proxies.client("192.0.2.5", List.of("203.0.113.1")));
        assertEquals("192.0.2.5", TrustedProxies.none().client("192.0.2.5", List.of("203.0.113.1")));
    }

    @Test
    void throughTrustedProxiesTheRightMostUntrustedHopIsTheClient() {
        assertEquals("198.51.100.7", proxies.client("127.0.0.1", List.of("203.0.113.66, 198.51.100.7")));
        assertEquals("198.51.100.7", proxies.client("127.0.0.1", List.of("203.0.113.66", "198.51.100.7, 10.1.2.3")));
        assertEquals("198.51.100.7", proxies.client("0:0:0:0:0:0:0:1", List.of("198.51.100.7,10.1.2.3,10.9.9.9")));
    }

    @Test
    void withoutAnyUntrustedHopOrPastGarbageTheLastTrustedHopStands() {
        assertEquals("127.0.0.1", proxies.client("127.0.0.1", List.of()));
        assertEquals("10.1.2.3", proxies.client("127.0.0.1", List.of("10.1.2.3")));
        assertEquals("10.1.2.3", proxies.client("127.0.0.1", List.of("<script>, 10.1.2.3")));
        assertEquals("127.0.0.1", proxies.client("127.0.0.1", List.of("unknown")));
    }

    @Test
    void matchesCidrBlocksAndNeverLooksUpNames() {
        assertTrue(proxies.trusts("10.255.0.1"));
        assertFalse(proxies.trusts("11.0.0.1"));
        assertFalse(proxies.trusts("127.0.0.2"));
        assertFalse(proxies.trusts("localhost"), "a name is not an address");
    }
}
