package dev.lockwarden.admin.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
    private static final Pattern PASSWORD_FILE = Pattern.compile("password: in (\\S+) \\(mode 600\\)");

    @TempDir
    Path dir;

    @Test
    void theGeneratedPasswordGoesIntoAMode600FileWhosePathAloneIsPrintedAndOnlyItsHashIntoTheUsersFile()
            throws Exception {
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        UserDirectory users = FirstRunUsers.create(Optional.of(dir), print(first), false);
        String printed = first.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("user:     operator"), printed);
        Path passwordFile = passwordFile(printed);
        assertEquals(dir.resolve(FirstRunUsers.PASSWORD_FILE_NAME).toAbsolutePath(), passwordFile);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(passwordFile)));
        String password = Files.readString(passwordFile).strip();
        assertTrue(password.length() >= 20, password);
        assertFalse(printed.contains(password), "not on stdout (journald and container logs keep it): " + printed);
        assertEquals(
                Role.OPERATOR,
                users.authenticate("operator", password.toCharArray())
                        .orElseThrow()
                        .role());
        assertTrue(users.mustChangePassword("operator"));

        Path file = dir.resolve(FirstRunUsers.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String content = Files.readString(file);
        assertFalse(content.contains(password), "the file holds the hash, not the password");
        assertTrue(content.contains("operator = OPERATOR:pbkdf2-sha256$"), content);

        ByteArrayOutputStream second = new ByteArrayOutputStream();
        UserDirectory again = FirstRunUsers.create(Optional.of(dir), print(second), false);
        assertFalse(second.toString(StandardCharsets.UTF_8).contains("password"), "nothing new: " + second);
        assertTrue(
                again.authenticate("operator", password.toCharArray()).isPresent(), "the second start reads the file");
        assertTrue(again.mustChangePassword("operator"), "still the generated password: still to be changed");
    }

    @Test
    void onATerminalThePasswordIsPrintedToo() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FirstRunUsers.create(Optional.of(dir), print(out), true);
        String password =
                Files.readString(dir.resolve(FirstRunUsers.PASSWORD_FILE_NAME)).strip();
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(password), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void settingANewPasswordRewritesTheUsersFileDeletesThePasswordFileAndSurvivesARestart() throws Exception {
        UserDirectory users = FirstRunUsers.create(Optional.of(dir), print(new ByteArrayOutputStream()), false);
        Path passwordFile = dir.resolve(FirstRunUsers.PASSWORD_FILE_NAME);
        String generated = Files.readString(passwordFile).strip();
        LoginService logins = new LoginService(users, java.time.Clock.systemUTC());
        AdminUser operator = logins.login("operator", generated.toCharArray(), "10.0.0.1")
                .user()
                .orElseThrow();
        assertEquals(
                Optional.of("Use at least 12 characters."),
                logins.changePassword(operator, "short".toCharArray(), "short".toCharArray()));
        assertEquals(
                Optional.of("The two passwords differ."),
                logins.changePassword(operator, "a-long-password-1".toCharArray(), "a-long-password-2".toCharArray()));
        assertTrue(Files.exists(passwordFile), "nothing changed yet");
        assertEquals(
                Optional.empty(),
                logins.changePassword(operator, "my-own-password".toCharArray(), "my-own-password".toCharArray()));
        assertFalse(Files.exists(passwordFile));
        assertFalse(users.mustChangePassword("operator"));
        assertTrue(
                users.authenticate("operator", "my-own-password".toCharArray()).isPresent());
        assertTrue(users.authenticate("operator", generated.toCharArray()).isEmpty());
        Path file = dir.resolve(FirstRunUsers.FILE_NAME);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));

        UserDirectory restarted = FirstRunUsers.create(Optional.of(dir), print(new ByteArrayOutputStream()), false);
        assertTrue(restarted
                .authenticate("operator", "my-own-password".toCharArray())
                .isPresent());
        assertFalse(restarted.mustChangePassword("operator"));
    }

    @Test
    void inMemoryEveryStartMakesANewPasswordInAPrivateTemporaryFile() throws Exception {
        ByteArrayOutputStream a = new ByteArrayOutputStream();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        UserDirectory first = FirstRunUsers.create(Optional.empty(), print(a), false);
        FirstRunUsers.create(Optional.empty(), print(b), false);
        String pa = Files.readString(passwordFile(a.toString(StandardCharsets.UTF_8)))
                .strip();
        String pb = Files.readString(passwordFile(b.toString(StandardCharsets.UTF_8)))
                .strip();
        assertNotEquals(pa, pb);
        assertEquals(
                "rwx------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(
                        passwordFile(a.toString(StandardCharsets.UTF_8)).getParent())));
        assertTrue(first.authenticate("operator", pa.toCharArray()).isPresent());
        assertFalse(first.authenticate("operator", pb.toCharArray()).isPresent());
        assertTrue(a.toString(StandardCharsets.UTF_8).contains("in memory"), a.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aUsersFileOthersCouldChangeIsRefusedWithTheFix() throws Exception {
        FirstRunUsers.create(Optional.of(dir), print(new ByteArrayOutputStream()), false);
        Path file = dir.resolve(FirstRunUsers.FILE_NAME);
        for (String mode : new String[] {"rw-rw----", "rw----rw-"}) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            String m = assertThrows(IllegalArgumentException.class, () -> UserDirectory.load(file))
                    .getMessage();
            assertTrue(m.contains("chmod 600 " + file.toAbsolutePath()), m);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        UserDirectory.load(file); // readable by others is the owner's choice; writable is not

        Path link = dir.resolve("link.properties");
        Files.createSymbolicLink(link, file);
        String m = assertThrows(IllegalArgumentException.class, () -> UserDirectory.load(link))
                .getMessage();
        assertTrue(m.contains("is a symbolic link") && m.contains("real file"), m);
    }

    @Test
    void aUsersFileOwnedBySomeoneElseIsRefused() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs chown");
        FirstRunUsers.create(Optional.of(dir), print(new ByteArrayOutputStream()), false);
        Path file = dir.resolve(FirstRunUsers.FILE_NAME);
        Files.setOwner(
                file, file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        String m = assertThrows(IllegalArgumentException.class, () -> UserDirectory.load(file))
                .getMessage();
        assertTrue(
                m.contains("belongs to nobody, not to root") && m.contains("chown root " + file.toAbsolutePath()), m);
    }

    private static PrintStream print(ByteArrayOutputStream out) {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    static Path passwordFile(String printed) {
        Matcher m = PASSWORD_FILE.matcher(printed);
        assertTrue(m.find(), printed);
        return Path.of(m.group(1));
    }
}
