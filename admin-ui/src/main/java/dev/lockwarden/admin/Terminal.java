package dev.lockwarden.admin;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether this JVM runs on an interactive terminal (standard input and output): the one test for printing the
 * first-run password next to its file ({@link dev.lockwarden.admin.security.FirstRunUsers}), which must never
 * reach journald or container logs, and for prompting for a password without echo instead of reading a piped
 * line ({@link dev.lockwarden.admin.cli.HashPasswordCommand}). {@code System.console() != null} alone is not
 * that test on every JDK: since JDK 22 it returns a console also when input or output is redirected, and
 * {@code Console.isTerminal()} (JDK 22+) tells the two apart. The dashboard
 * compiles for 17, so that method is looked up by reflection; where it is missing (JDK 17 to 21) a console means a
 * terminal.
 */
public final class Terminal {
    private Terminal() {}

    /** True only when this JVM has a console and, where the JDK can say so, that console is a terminal. */
    public static boolean isTerminal() {
        Console console = System.console();
        return decide(console != null, () -> ask(console, Console.class));
    }

    /**
     * The decision itself.
     *
     * @param consolePresent {@code System.console() != null}
     * @param isTerminal     the console's {@code isTerminal()} answer, empty where the JDK has no such method
     *                       (only asked when there is a console)
     */
    static boolean decide(boolean consolePresent, Supplier<Optional<Boolean>> isTerminal) {
        return consolePresent && isTerminal.get().orElse(true);
    }

    /**
     * {@code type.isTerminal()} on {@code console}: empty if {@code type} has no such public method; false if the
     * call fails (the password then stays in its file only).
     */
    static Optional<Boolean> ask(Object console, Class<?> type) {
        Method isTerminal;
        try {
            isTerminal = type.getMethod("isTerminal");
        } catch (NoSuchMethodException beforeJdk22) {
            return Optional.empty();
        }
        try {
            return Optional.of(Boolean.TRUE.equals(isTerminal.invoke(console)));
        } catch (ReflectiveOperationException | RuntimeException cannotTell) {
            return Optional.of(false);
        }
    }
}
