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
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PasswordHasher.validate("plain"));
        assertTrue(e.getMessage().contains("hash-password"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.validate("pbkdf2-sha256$x$AA==$AA=="));
        assertThrows(IllegalArgumentException.class, () -> PasswordHasher.hash("x".toCharArray(), 10));
    }
}
