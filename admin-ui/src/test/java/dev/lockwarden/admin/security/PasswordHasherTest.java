package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    @Test
    void matchesOnlyTheRightPasswordAndSaltsEveryHash() {
        String a = PasswordHasher.hash("s3cret".toCharArray(), 10_000);
        String b = PasswordHasher.hash("s3cret".toCharArray(), 10_000);
        assertTrue(a.startsWith("pbkdf2-sha256$10000$"));
        assertNotEquals(a, b, "random salt");
        assertTrue(PasswordHasher.matches("s3cret".toCharArray(), a));
        assertFalse(PasswordHasher.matches("s3cret!".toCharArray(), a));
        assertFalse(PasswordHasher.matches(new char[0], a));
    }

    @Test
    void malformedHashesAreRejectedWithTheFix() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PasswordHasher.validate("plain"));
        assertTrue(e.getMessage().contains("hash-password"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.validate("pbkdf2-sha256$x$AA==$AA=="));
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.hash("x".toCharArray(), 10));
    }

    @Test
    void hashesThatWouldBreakEveryLoginOrBeCheapToCrackAreRefusedAtLoad() {
        String salt16 = java.util.Base64.getEncoder().encodeToString(new byte[16]);
        String hash32 = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        for (String weak : new String[] {
            "pbkdf2-sha256$0$" + salt16 + "$" + hash32,
            "pbkdf2-sha256$9999$" + salt16 + "$" + hash32,
            "pbkdf2-sha256$600000$$" + hash32,
            "pbkdf2-sha256$600000$" + java.util.Base64.getEncoder().encodeToString(new byte[8]) + "$" + hash32,
            "pbkdf2-sha256$600000$" + salt16 + "$"
                    + java.util.Base64.getEncoder().encodeToString(new byte[4])
        }) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> UserDirectory.of(java.util.Map.of("alice", "OPERATOR:" + weak)),
                    weak);
            assertTrue(
                    e.getMessage().contains("user 'alice'")
                            && e.getMessage().contains("at least 10000 iterations, a 16-byte salt")
                            && e.getMessage().contains("hash-password"),
                    e.getMessage());
        }
        UserDirectory.of(java.util.Map.of("alice", "OPERATOR:pbkdf2-sha256$10000$" + salt16 + "$" + hash32));
    }
}
