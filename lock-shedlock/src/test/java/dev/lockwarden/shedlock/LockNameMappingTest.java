package dev.lockwarden.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ShedLock names Lockwarden does not take as they are, and how they map. */
class LockNameMappingTest {

    @Test
    void namesLockwardenAcceptsStayAsTheyAre() {
        for (String name : List.of("report-job", "billing:nightly report", "Jobs.cleanUp", "zählen", "日次バッチ")) {
            assertEquals(name, LockwardenLockProvider.lockNameOf(name));
        }
    }

    @Test
    void bracesControlCharactersAndPercentAreEncoded() {
        assertEquals("job-%7Btenant%7D", LockwardenLockProvider.lockNameOf("job-{tenant}"));
        assertEquals("a%0Ab%09c%00", LockwardenLockProvider.lockNameOf("a\nb\tc\0"));
        assertEquals("100%25", LockwardenLockProvider.lockNameOf("100%"));
    }

    @Test
    void blankNamesAreEncodedWhole() {
        assertEquals("%20", LockwardenLockProvider.lockNameOf(" "));
        assertEquals("%20%E3%80%80", LockwardenLockProvider.lockNameOf(" \u3000"));
    }

    @Test
    void distinctNamesNeverShareALock() {
        assertNotEquals(LockwardenLockProvider.lockNameOf("a{b"), LockwardenLockProvider.lockNameOf("a%7Bb"));
        assertNotEquals(LockwardenLockProvider.lockNameOf(" "), LockwardenLockProvider.lockNameOf("%20"));
        String common = "x".repeat(600);
        assertNotEquals(
                LockwardenLockProvider.lockNameOf(common + "1"), LockwardenLockProvider.lockNameOf(common + "2"));
    }

    @Test
    void longNamesKeepTheirStartAndEndInTheHashOfTheWholeName() throws Exception {
        String name = "é".repeat(400); // 800 bytes
        String mapped = LockwardenLockProvider.lockNameOf(name);
        String hash = HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8)));
        assertEquals("é".repeat(220) + "~" + hash, mapped);
        assertTrue(mapped.getBytes(StandardCharsets.UTF_8).length <= 512);
    }

    @Test
    void aLongNameIsNeverCutInsideAnEscape() {
        String mapped = LockwardenLockProvider.lockNameOf("a".repeat(439) + "{" + "b".repeat(100));
        assertEquals("a".repeat(439) + "~", mapped.substring(0, 440), "the escape %7B does not fit whole: left out");
    }

    @Test
    void emptyNamesAreRefusedAsShedLockRefusesThem() {
        assertThrows(IllegalArgumentException.class, () -> LockwardenLockProvider.lockNameOf(""));
    }
}
