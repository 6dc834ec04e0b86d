package dev.lockwarden.agent.config;

/**
 * The reserved key placeholders {@code {class}} and {@code {method}}: the simple name of the instrumented class
 * and the name of the instrumented method. They are replaced by text before the template is parsed.
 */
public final class KeyNames {
    private KeyNames() {}

    /** {@code template} with {@code {class}} and {@code {method}} replaced. */
    public static String substitute(String template, String simpleClassName, String methodName) {
        return template.replace("{class}", simpleClassName).replace("{method}", methodName);
    }
}
