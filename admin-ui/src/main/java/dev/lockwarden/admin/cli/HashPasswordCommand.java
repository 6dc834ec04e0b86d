package dev.lockwarden.admin.cli;

import dev.lockwarden.admin.Terminal;
import dev.lockwarden.admin.security.PasswordHasher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code lockwarden-admin.jar hash-password}: prints a hash for a line of the users file. The password
 * is read from the console without echo, or as one line from stdin when there is no console (a pipe).
 */
@Command(
        name = "hash-password",
        mixinStandardHelpOptions = true,
        description = {
            "Reads a password (without echo, or one line from stdin) and prints its salted "
                    + "PBKDF2-HMAC-SHA256 hash for the users file: name = OPERATOR|VIEWER:<hash>"
        })
public final class HashPasswordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        char[] password = read();
        PrintWriter err = spec.commandLine().getErr();
        if (password.length == 0) {
            err.println("hash-password: the password is empty: type one, or pipe one line into stdin");
            return 2;
        }
        try {
            spec.commandLine().getOut().println(PasswordHasher.hash(password));
            return 0;
        } finally {
            Arrays.fill(password, '\0');
        }
    }

    private static char[] read() throws IOException {
        if (Terminal.isTerminal()) { // not System.console() != null: JDK 22 to 24 have a console also for a pipe
            char[] pw = System.console().readPassword("password: ");
            return pw == null ? new char[0] : pw;
        }
        String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        return line == null ? new char[0] : line.toCharArray();
    }
}
