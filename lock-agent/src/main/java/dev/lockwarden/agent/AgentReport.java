package dev.lockwarden.agent;

import dev.lockwarden.agent.MethodPlanner.Planned;
import dev.lockwarden.agent.config.AgentConfig;
import dev.lockwarden.agent.config.LockRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The start-up report: each rule and what it will match, one INFO line per method actually instrumented (with its
 * class loader), every problem once at ERROR, and the rules that matched nothing after a delay and at shutdown.
 */
final class AgentReport {
    private final AgentConfig config;
    private final Map<String, List<String>> matched = new ConcurrentHashMap<>();
    private final Set<String> problems = ConcurrentHashMap.newKeySet();
    private final List<String> problemList = new CopyOnWriteArrayList<>();
    private final Set<String> closed = ConcurrentHashMap.newKeySet();

    AgentReport(AgentConfig config) {
        this.config = config;
        for (LockRule r : config.rules()) {
            matched.put(r.where(), new CopyOnWriteArrayList<>());
        }
    }

    void started(boolean attached) {
        AgentLog.info(config.rules().size() + " lock rule(s) from " + config.file() + " active"
                + (attached ? " (attached)" : ""));
        for (LockRule r : config.rules()) {
            AgentLog.info(r.where() + ": " + r.spec() + " → " + describe(r));
        }
    }

    /** What a rule matches, in words. */
    static String describe(LockRule r) {
        String classes = r.subtypes()
                ? (r.className().contains("*") ? "subtypes of the types matching " : "every subtype of ")
                        + r.className()
                : r.className().contains("*") ? "classes matching " + r.className() : "class " + r.className();
        // ifs rather than Optional.map: this runs in premain (see RuleMatchers)
        String methods = (r.methodName().contains("*") ? "methods matching " : "method ")
                + r.methodName()
                + (r.parameterTypes().isPresent()
                        ? "(" + String.join(", ", r.parameterTypes().get()) + ")"
                        : " (any parameters)");
        return methods + " declared in " + classes + "; key \"" + r.key() + "\", ttl "
                + (r.ttl().isPresent() ? r.ttl().get().toString() : "default")
                + ", wait " + (r.waitUpTo().isPresent() ? r.waitUpTo().get().toString() : "default") + ", onBusy "
                + r.onBusy()
                + ", onLost " + r.onLost().name().toLowerCase() + ", onStoreDown "
                + r.onStoreDown().name().toLowerCase()
                + (r.holdAtLeast().isPresent()
                        ? ", holdAtLeast " + r.holdAtLeast().get()
                        : "");
    }

    void instrumented(Planned p, ClassLoader loader, String note) {
        matched.get(p.rule().where()).add(p.signature());
        AgentLog.info("instrumented " + p.signature() + " (" + p.rule().where() + ") in class loader "
                + describe(loader) + (note == null ? "" : " — " + note));
    }

    /** Logs a problem found while classes load, once. */
    void problem(String message) {
        if (problems.add(message)) {
            problemList.add(message);
            AgentLog.error(message);
        }
    }

    List<String> problems() {
        return List.copyOf(problemList);
    }

    /** Every instrumented method, as {@code file:line: Class#method(types)}. */
    List<String> matchedMethods() {
        List<String> all = new ArrayList<>();
        for (LockRule r : config.rules()) {
            for (String m : matched.get(r.where())) {
                all.add(r.where() + ": " + m);
            }
        }
        return all;
    }

    /**
     * A method of the rule matched but its class could not be woven and was made to fail ({@link FailClosedClass}):
     * already reported as a problem, so the rule is not reported again as matching nothing.
     */
    void failedClosed(String ruleWhere) {
        closed.add(ruleWhere);
    }

    /** Rules that instrumented no method so far (rules whose class was made to fail are not among them). */
    List<LockRule> unmatched() {
        List<LockRule> none = new ArrayList<>();
        for (LockRule r : config.rules()) {
            if (matched.get(r.where()).isEmpty() && !closed.contains(r.where())) {
                none.add(r);
            }
        }
        return none;
    }

    /** One WARNING per rule that matched nothing; {@code when} says when the check ran. */
    void reportUnmatched(String when, boolean atShutdown) {
        for (LockRule r : unmatched()) {
            String message = r.where() + ": rule " + r.spec() + " matched no method " + when
                    + " (its class was never loaded, or the pattern matches nothing) — check the name against the"
                    + " application, e.g. with: java -jar lock-agent.jar check " + config.file() + " <app.jar>";
            if (atShutdown) {
                AgentLog.atShutdown(System.Logger.Level.WARNING, message);
            } else {
                AgentLog.warn(message);
            }
        }
    }

    /** A daemon thread, not started, that reports unmatched rules once after {@code delay}. */
    Thread unmatchedReport(Duration delay) {
        Thread t = new Thread(
                new Runnable() { // not a lambda: started in premain
                    @Override
                    public void run() {
                        try {
                            Thread.sleep(delay.toMillis());
                            reportUnmatched("within " + delay.toSeconds() + " s of start", false);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                },
                "lockwarden-agent-report");
        t.setDaemon(true);
        return t;
    }

    static String describe(ClassLoader loader) {
        if (loader == null) {
            return "bootstrap";
        }
        String name = loader.getName();
        return (name != null ? name + " " : "") + "(" + loader.getClass().getName() + ")";
    }
}
