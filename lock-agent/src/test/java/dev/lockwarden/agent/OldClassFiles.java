package dev.lockwarden.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Java 6 class files (major version 50, no stack map frames required) for the weaving tests: javac writes the
 * oldest release it still can, and the version is lowered to 50 (the code is the same; the JVM then verifies it
 * with the old verifier). JDK 20 dropped {@code --release 7}, so from there that release is 8: the tests then run
 * on every JDK the agent supports.
 */
final class OldClassFiles {
    private OldClassFiles() {}

    /** The oldest {@code --release} this JDK's javac accepts: 7 up to JDK 19, 8 from JDK 20. */
    static String oldestRelease() {
        return Runtime.version().feature() < 20 ? "7" : "8";
    }

    /** Rewrites {@code classFile}, compiled with {@link #oldestRelease()}, as a Java 6 class file. */
    static void lowerToJava6(Path classFile) throws IOException {
        byte[] bytes = Files.readAllBytes(classFile);
        int written = 44 + Integer.parseInt(oldestRelease());
        assertEquals(
                written,
                ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff),
                "javac --release " + oldestRelease() + " writes major version " + written);
        bytes[6] = 0;
        bytes[7] = 50;
        Files.write(classFile, bytes);
    }
}
