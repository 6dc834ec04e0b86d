package dev.lockwarden;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The MAC of an audit record: made only with the key, over every signed field and the previous MAC. */
class AuditSignerTest {
    private static final byte[] KEY =
            HexFormat.of().parseHex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");

    private static Map<String, String> record() {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("name", "pay:1");
        f.put("operator", "alice");
        f.put("at", "1700000000000");
        return f;
    }

    @Test
    void aSealedRecordVerifiesAndNamesWhatItSigned() {
        AuditSigner s = AuditSigner.of(KEY);
        Map<String, String> f = record();
        s.seal(f, "17-0", "abc");
        assertEquals("17-0", f.get("prev"));
        assertEquals("abc", f.get("prevMac"));
        assertEquals("name,operator,at,prev,prevMac", f.get("signed"));
        assertEquals(64, f.get("mac").length());
        assertTrue(s.verify(f));
        f.put("oldFence", "9"); // a field added after sealing (by the script) is not covered, and does not break it
        assertTrue(s.verify(f));
    }

    @Test
    void anAlteredFieldAnotherPreviousMacOrAnotherKeyFails() {
        AuditSigner s = AuditSigner.of(KEY);
        Map<String, String> f = record();
        s.seal(f, "17-0", "abc");
        for (String field : new String[] {"name", "operator", "at", "prev", "prevMac", "signed"}) {
            Map<String, String> altered = new LinkedHashMap<>(f);
            altered.put(field, altered.get(field) + "x");
            assertFalse(s.verify(altered), field);
        }
        Map<String, String> dropped = new LinkedHashMap<>(f);
        dropped.remove("operator");
        assertFalse(s.verify(dropped), "a signed field removed");
        byte[] other = KEY.clone();
        other[0] = 1;
        assertFalse(AuditSigner.of(other).verify(f), "another key");
        Map<String, String> forged = record();
        AuditSigner.of(other).seal(forged, "17-0", "abc");
        assertFalse(s.verify(forged), "sealed without the key");
        Map<String, String> unsealed = record();
        assertFalse(s.verify(unsealed));
    }

    @Test
    void shortKeysAreRefusedAndTheKeyIsNeverShown() {
        assertThrows(IllegalArgumentException.class, () -> AuditSigner.of(new byte[31]));
        String shown = AuditSigner.of(KEY).toString();
        assertFalse(shown.toLowerCase().contains("00112233"), shown);
        assertTrue(shown.contains("key hidden"), shown);
    }
}
