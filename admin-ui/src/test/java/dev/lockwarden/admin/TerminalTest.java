package dev.lockwarden.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The first-run password is printed only on a terminal: {@code System.console()} alone says "terminal" on JDK
 * 22 to 24 also when stdout is redirected, so the console's {@code isTerminal()} must agree where it exists.
 */
class TerminalTest {
    /** A JDK 22+ console. */
    public static final class NewConsole {
        private final boolean terminal;

        NewConsole(boolean terminal) {
            this.terminal = terminal;
        }

        public boolean isTerminal() {
            return terminal;
        }
    }

    /** A JDK 17 to 21 console: no isTerminal(). */
    public static final class OldConsole {}

    /** A console whose isTerminal() fails. */
    public static final class BrokenConsole {
        public boolean isTerminal() {
            throw new IllegalStateException("cannot tell");
        }
    }

    @Test
    void noConsoleIsNoTerminalAndTheConsoleIsNotAsked() {
        AtomicBoolean asked = new AtomicBoolean();
        assertFalse(Terminal.decide(false, () -> {
            asked.set(true);
            return Optional.of(true);
        }));
        assertFalse(asked.get());
    }

    @Test
    void aConsoleThatSaysItIsNotATerminalIsNone() { // JDK 22 to 24 with stdout redirected
        assertFalse(Terminal.decide(true, () -> Optional.of(false)));
        assertTrue(Terminal.decide(true, () -> Optional.of(true)));
    }

    @Test
    void withoutIsTerminalAConsoleIsATerminal() { // JDK 17 to 21: System.console() is null when redirected
        assertTrue(Terminal.decide(true, Optional::empty));
    }

    @Test
    void isTerminalIsFoundByReflectionAndAFailureCountsAsNoTerminal() {
        assertEquals(Optional.of(true), Terminal.ask(new NewConsole(true), NewConsole.class));
        assertEquals(Optional.of(false), Terminal.ask(new NewConsole(false), NewConsole.class));
        assertEquals(Optional.empty(), Terminal.ask(new OldConsole(), OldConsole.class));
        assertEquals(Optional.of(false), Terminal.ask(new BrokenConsole(), BrokenConsole.class));
        assertFalse(Terminal.decide(true, () -> Terminal.ask(new NewConsole(false), NewConsole.class)));
    }

    @Test
    void javaIoConsoleHasIsTerminalExactlyFromJdk22() {
        assertEquals(
                Runtime.version().feature() >= 22,
                Terminal.ask(null, java.io.Console.class).isPresent());
    }

    @Test
    void thisJvmsRedirectedStdoutIsNoTerminal() { // surefire pipes the test JVM's output
        assertFalse(Terminal.isTerminal());
    }
}
