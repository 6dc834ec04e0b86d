package dev.lockwarden.admin.security;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Prints a password hash for a users file: {@code admin-ui/run hash} (reads the password from the
 * console without echo, or one line from stdin when there is no console).
 */
public final class HashPassword {
    private HashPassword() {
    }

    /** Entry point. */
    public static void main(String[] args) throws IOException {
        char[] password;
        Console console = System.console();
        if (console != null) {
            password = console.readPassword("password: ");
        } else {
            String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            password = line == null ? new char[0] : line.toCharArray();
        }
        if (password == null || password.length == 0) {
            System.err.println("empty password: type one (or pipe one line into stdin)");
            System.exit(2);
        }
        System.out.println(PasswordHasher.hash(password));
    }
}
