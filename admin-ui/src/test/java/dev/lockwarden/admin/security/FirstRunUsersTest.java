package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FirstRunUsersTest {
    private static final Pattern PASSWORD = Pattern.compile("password: (\\S+)");

    @TempDir
    Path dir;

    @Test
    void createsAnOperatorWithARandomPasswordPrintedOnceAndOnlyItsHashInAMode600File() throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        UserDirectory users = FirstRunUsers.create(Optional.of(dir), new PrintStream(first, true, StandardCharsets.UTF_8));
        String printed = first.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("user:     operator"), printed);
        String password = password(printed);
        assertTrue(password.length() >= 20, password);
        assertEquals(Role.OPERATOR, users.authenticate("operator", password.toCharArray()).orElseThrow().role());

        Path file = dir.resolve(FirstRunUsers.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String content = Files.readString(file);
        assertFalse(content.contains(password), "the file holds the hash, not the password");
        assertTrue(content.contains("operator = OPERATOR:pbkdf2-sha256$"), content);

        ByteArrayOutputStream second = new ByteArrayOutputStream();
        UserDirectory again = FirstRunUsers.create(Optional.of(dir), new PrintStream(second, true, StandardCharsets.UTF_8));
        assertFalse(second.toString(StandardCharsets.UTF_8).contains("password"), "printed once only: " + second);
        assertTrue(again.authenticate("operator", password.toCharArray()).isPresent(), "the second start reads the file");
    }

    @Test
    void inMemoryEveryStartMakesANewPasswordAndNoFile() {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        UserDirectory first = FirstRunUsers.create(Optional.empty(), new PrintStream(a, true, StandardCharsets.UTF_8));
        FirstRunUsers.create(Optional.empty(), new PrintStream(b, true, StandardCharsets.UTF_8));
        String pa = password(a.toString(StandardCharsets.UTF_8));
        String pb = password(b.toString(StandardCharsets.UTF_8));
        assertNotEquals(pa, pb);
        assertTrue(first.authenticate("operator", pa.toCharArray()).isPresent());
        assertFalse(first.authenticate("operator", pb.toCharArray()).isPresent());
        assertTrue(a.toString(StandardCharsets.UTF_8).contains("in memory"), a.toString(StandardCharsets.UTF_8));
    }

    static String password(String printed) {
        Matcher m = PASSWORD.matcher(printed);
        assertTrue(m.find(), printed);
        return m.group(1);
    }
}
