package dev.lockwarden.examples.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The dashboard's port: the one asked for (8080 by default) when free, else another free one. */
class LiveDemoPortTest {
    @Test
    void aFreePreferredPortIsKept() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = s.getLocalPort();
        }
        assertEquals(free, LiveDemo.freeOr(free));
    }

    @Test
    void aTakenPortIsReplacedByAFreeOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int other = LiveDemo.freeOr(taken.getLocalPort());
            assertNotEquals(taken.getLocalPort(), other);
            try (ServerSocket s = new ServerSocket(other, 1, InetAddress.getLoopbackAddress())) {
                assertEquals(other, s.getLocalPort());
            }
        }
    }

    @Test
    void theDefaultIs8080() {
        assertEquals(8080, new LiveDemo().port);
    }
}
