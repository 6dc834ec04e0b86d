package dev.lockwarden.agent;

import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.MethodPlanner.Planned;
import java.util.List;

/**
 * Where every failure on a class a rule can name ends: the class is made to fail ({@link FailClosedClass}) — a class
 * being defined gets every method and its initialiser throwing, an already loaded one (retransformation keeps its
 * shape) every method — and the failure is reported at ERROR with the class, the rule lines and the cause. When even
 * that fails the JVM stops ({@link Halt}). Nothing here returns "leave the class as it is".
 */
final class ClassClosing {
    private final NameFilter filter;
    private final AgentReport report;

    ClassClosing(NameFilter filter, AgentReport report) {
        this.filter = filter;
        this.report = report;
    }

    /**
     * The failing class file for {@code name}; {@code plan} is null when the failure came before planning, and then
     * the rules whose class pattern can name the class are reported.
     */
    byte[] close(String name, ClassLoader loader, boolean loaded, byte[] bytes, Plan plan, Throwable cause) {
        String methods = methods(name, plan);
        String message = AgentLog.PREFIX + name + " could not be instrumented (" + cause + "), so every method of it"
                + " fails instead of letting " + methods
                + " run without its lock; remove the rule or report this with the"
                + " class file";
        try {
            InjectedFault.at("closed", name);
            byte[] closed = loaded ? FailClosedClass.keepingShape(bytes, message) : FailClosedClass.of(bytes, message);
            if (plan != null) {
                for (Planned p : plan.methods()) {
                    report.failedClosed(p.rule().where());
                }
            } else {
                for (String where : filter.rulesNaming(name.replace('.', '/'))) {
                    report.failedClosed(where);
                }
            }
            report.problem("could not instrument " + name + " in class loader " + AgentReport.describe(loader) + " ("
                    + cause
                    + "): the class is " + (loaded ? "retransformed" : "defined") + " with every method throwing"
                    + " IllegalStateException, so " + methods
                    + " never runs without its lock; remove the rule or report this"
                    + " with the class file");
            return closed;
        } catch (Throwable e) { // an Error too (out of memory, stack overflow): the class must not load unwoven
            Halt.stop(name + " in class loader " + AgentReport.describe(loader) + " could not be instrumented (" + cause
                    + ") nor made to fail (" + e + "), and " + methods
                    + " must not run without its lock; remove the rule or"
                    + " report this with the class file");
            throw new IllegalStateException(e); // not reached: halt does not return
        }
    }

    private String methods(String name, Plan plan) {
        StringBuilder s = new StringBuilder();
        if (plan != null && !plan.methods().isEmpty()) {
            for (Planned p : plan.methods()) {
                s.append(s.length() == 0 ? "" : ", ")
                        .append(p.signature())
                        .append(" (")
                        .append(p.rule().where())
                        .append(')');
            }
            return s.toString();
        }
        List<String> rules = filter.rulesNaming(name.replace('.', '/'));
        return "the methods of " + name + " that " + String.join(", ", rules) + " name";
    }
}
