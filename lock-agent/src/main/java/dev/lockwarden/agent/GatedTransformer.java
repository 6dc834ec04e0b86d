package dev.lockwarden.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.lockwarden.agent.Binder.Woven;
import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.bootstrap.LockBridge;

/**
 * The class file transformer the JVM calls for every class: classes of the boot loader and classes whose name no
 * rule can match ({@link NameFilter}) return at once, unchanged (their bytes stay identical). The rest are read
 * as {@link ClassModel}s and planned; a class with nothing to lock stays unchanged too. Planned classes are woven by
 * {@link AsmWeaver} when first loaded, else (retransformation, interfaces, pre-Java 7 class files, or when ASM
 * weaving fails) by Byte Buddy ({@link ClassWeaver}). When both fail on a class being defined, it is defined with
 * every method throwing ({@link FailClosedClass}), so a lock-wrapped method never runs unlocked; reported at ERROR
 * (and in JMX Problems). A failure on retransformation (attach) is reported and the loaded class stays as it is.
 */
final class GatedTransformer implements ClassFileTransformer {
    private final NameFilter filter;
    private final MethodPlanner planner;
    private final Binder binder;
    private final AgentReport report;
    private final Instrumentation inst;
    /** What {@link AsmWeaver} made, per loader and class: a later retransformation must keep the added methods. */
    private final Map<ClassLoader, Map<String, byte[]>> asmWoven = new WeakHashMap<>();

    GatedTransformer(NameFilter filter, MethodPlanner planner, Binder binder, AgentReport report, Instrumentation inst) {
        this.filter = filter;
        this.planner = planner;
        this.binder = binder;
        this.report = report;
        this.inst = inst;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] bytes) {
        if (loader == null || !filter.mayMatch(className)) {
            return null;
        }
        if (redefined != null) {
            byte[] earlier = earlier(loader, className);
            if (earlier != null) {
                return earlier;
            }
        }
        String name = className.replace('/', '.');
        StartupStamps.mark("until-weave");
        try {
            // for a retransformation the planner reads the original class file (the JVM's bytes are reconstituted)
            byte[] original = redefined != null ? TypeResolver.read(loader, name) : null;
            ClassModel model = ClassModel.read(original != null ? original : bytes);
            if (generated(model)) {
                return null;
            }
            Plan plan = planner.plan(model, TypeResolver.of(loader).with(name, model));
            if (plan.methods().isEmpty()) {
                for (String problem : plan.problems()) {
                    report.problem(problem);
                }
                return null;
            }
            List<Woven> woven = binder.bind(plan, loader);
            byte[] result = null;
            if (AsmWeaver.canWeave(model, redefined)) {
                try {
                    result = AsmWeaver.weave(bytes, woven);
                    remember(loader, className, result);
                } catch (RuntimeException | LinkageError e) {
                    AgentLog.warn("ASM weaving of " + name + " failed, falling back to Byte Buddy: " + e);
                }
            }
            if (result == null) {
                try {
                    result = ClassWeaver.weave(loader, name, redefined, bytes, woven);
                } catch (RuntimeException | LinkageError e) {
                    if (redefined != null) {
                        throw e; // an already loaded class cannot change shape: reported below, the attach lists it
                    }
                    return failClosed(name, loader, plan, bytes, e);
                }
            }
            readBridge(module);
            binder.reportWoven(woven, loader);
            StartupStamps.mark("woven");
            return result;
        } catch (RuntimeException | LinkageError e) {
            report.problem("could not instrument " + name + " in class loader " + AgentReport.describe(loader)
                    + ", so its configured methods run WITHOUT locks: " + e);
            return null;
        }
    }

    /**
     * Neither weaver took a class with lock-wrapped methods: it is defined so that every method fails
     * ({@link FailClosedClass}) rather than run unlocked, and that is reported at ERROR once.
     */
    private byte[] failClosed(String name, ClassLoader loader, Plan plan, byte[] bytes, Throwable cause) {
        StringBuilder methods = new StringBuilder();
        for (MethodPlanner.Planned p : plan.methods()) {
            methods.append(methods.length() == 0 ? "" : ", ").append(p.signature()).append(" (").append(p.rule().where()).append(')');
        }
        String message = AgentLog.PREFIX + name + " could not be instrumented (" + cause + "), so every method of it"
                + " fails instead of letting " + methods + " run without its lock; remove the rule or report this with the"
                + " class file";
        try {
            byte[] closed = FailClosedClass.of(bytes, message);
            for (MethodPlanner.Planned p : plan.methods()) {
                report.failedClosed(p);
            }
            report.problem("could not instrument " + name + " in class loader " + AgentReport.describe(loader) + " (" + cause
                    + "): the class is defined with every method throwing IllegalStateException, so " + methods
                    + " never runs without its lock; remove the rule or report this with the class file");
            return closed;
        } catch (RuntimeException | LinkageError e) {
            report.problem("could not instrument " + name + " in class loader " + AgentReport.describe(loader) + ", so its"
                    + " configured methods run WITHOUT locks: " + cause + " (and it could not be made to fail either: " + e + ")");
            return null;
        }
    }

    /** Synthetic and generated proxy classes are never instrumented. */
    private static boolean generated(ClassModel model) {
        String n = model.name();
        return model.isSynthetic() || n.contains("$$") || n.contains("$ByteBuddy$") || n.contains("$Proxy");
    }

    private synchronized byte[] earlier(ClassLoader loader, String className) {
        Map<String, byte[]> m = asmWoven.get(loader);
        return m == null ? null : m.get(className);
    }

    private synchronized void remember(ClassLoader loader, String className, byte[] woven) {
        Map<String, byte[]> m = asmWoven.get(loader);
        if (m == null) {
            m = new ConcurrentHashMap<>();
            asmWoven.put(loader, m);
        }
        m.put(className, woven);
    }

    /** Classes of a named module must be able to read the bridge's (unnamed, boot) module. */
    private void readBridge(Module module) {
        Module bridge = LockBridge.class.getModule();
        if (module != null && module.isNamed() && !module.canRead(bridge)) {
            inst.redefineModule(module, Set.of(bridge), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }
}
