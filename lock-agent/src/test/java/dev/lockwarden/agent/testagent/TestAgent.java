package dev.lockwarden.agent.testagent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.ProtectionDomain;

/**
 * A second java agent for the tests, packed into its own jar by {@code MatchingIT}.
 * {@code load=Class} loads a class in premain (before the Lockwarden agent, when listed first);
 * {@code capture=DIR} (listed after the Lockwarden agent) writes the final bytes of every
 * {@code com.acme.legacy} class as the JVM defines it, after every earlier transformer.
 */
public final class TestAgent {
    private TestAgent() {}

    public static void premain(String args, Instrumentation inst) throws Exception {
        if (args.startsWith("load=")) {
            Class.forName(args.substring("load=".length()));
        } else if (args.startsWith("capture=")) {
            Path dir = Path.of(args.substring("capture=".length()));
            inst.addTransformer(
                    new ClassFileTransformer() {
                        @Override
                        public byte[] transform(
                                ClassLoader loader,
                                String name,
                                Class<?> redefined,
                                ProtectionDomain domain,
                                byte[] bytes) {
                            if (name != null && name.startsWith("com/acme/legacy/")) {
                                try {
                                    Files.write(dir.resolve(name.replace('/', '.') + ".class"), bytes);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            }
                            return null;
                        }
                    },
                    true);
        }
    }
}
