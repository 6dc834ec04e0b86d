package dev.lockwarden.agent;

import dev.lockwarden.agent.config.LockRule;
import dev.lockwarden.agent.config.Names;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The raw-name pre-filter in front of Byte Buddy: decides from the JVM's internal class name alone
 * ({@code com/acme/Billing}) whether a class can be named by a rule at all. Every class the JVM loads passes
 * through it, so it uses plain string operations only — Byte Buddy (type pool, matchers) is consulted only for the
 * classes it lets through. It may let through more than the rules match (Byte Buddy decides exactly), never less:
 * exact names are compared, {@code *} patterns are matched by {@link RuleMatchers#wildcard} after a literal-prefix check, and a {@code +}
 * rule (subtypes can have any name) lets every class through that is not excluded.
 */
final class NameFilter {
    /** Never instrumented, whatever a rule says ({@code +} rules let any name through): {@link Names#PROTECTED}. */
    private static final String[] EXCLUDED = excluded();

    private final Set<String> exact = new HashSet<>();
    private final List<String> prefixes = new ArrayList<>();
    private final List<String> patterns = new ArrayList<>();
    private final boolean anyName;
    private final List<LockRule> rules;

    NameFilter(List<LockRule> rules) {
        this.rules = List.copyOf(rules);
        boolean any = false;
        for (LockRule r : rules) {
            String internal = r.className().replace('.', '/');
            if (r.subtypes()) {
                any = true;
            } else if (internal.contains("*")) {
                prefixes.add(internal.substring(0, internal.indexOf('*')));
                patterns.add(internal);
            } else {
                exact.add(internal);
            }
        }
        this.anyName = any;
    }

    private static String[] excluded() {
        String[] internal = new String[Names.PROTECTED.size()];
        for (int i = 0; i < internal.length; i++) {
            internal[i] = Names.PROTECTED.get(i).replace('.', '/');
        }
        return internal;
    }

    /** Whether the class with this internal name may be named by a rule; false for JDK and agent classes. */
    boolean mayMatch(String internalName) {
        if (internalName == null) {
            return false;
        }
        for (String e : EXCLUDED) {
            if (internalName.startsWith(e)) {
                return false;
            }
        }
        if (anyName || exact.contains(internalName)) {
            return true;
        }
        for (int i = 0; i < prefixes.size(); i++) {
            if (internalName.startsWith(prefixes.get(i)) && RuleMatchers.wildcard(patterns.get(i), internalName, '/')) {
                return true;
            }
        }
        return false;
    }

    /** The lines of the rules whose class pattern can name this class ({@code +} rules: any class); for messages. */
    List<String> rulesNaming(String internalName) {
        List<String> wheres = new ArrayList<>();
        for (LockRule r : rules) {
            String internal = r.className().replace('.', '/');
            if (r.subtypes() || internal.equals(internalName) || RuleMatchers.wildcard(internal, internalName, '/')) {
                wheres.add(r.where());
            }
        }
        return wheres;
    }
}
