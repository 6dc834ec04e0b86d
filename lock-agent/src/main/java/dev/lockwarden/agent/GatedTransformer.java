package dev.lockwarden.agent;

import dev.lockwarden.agent.Binder.Woven;
import dev.lockwarden.agent.MethodPlanner.Plan;
import dev.lockwarden.agent.bootstrap.LockBridge;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class file transformer the JVM calls for every class: classes of the boot loader and classes whose name no
 * rule can match ({@link NameFilter}) return at once, unchanged (their bytes stay identical). The rest are read
 * as {@link ClassModel}s and planned; a class with nothing to lock stays unchanged too. Planned classes are woven by
 * {@link AsmWeaver} when first loaded, else (retransformation, interfaces, pre-Java 7 class files, or when ASM
 * weaving fails) by Byte Buddy ({@link ClassWeaver}). Any failure on a candidate class — reading, planning, binding,
 * weaving, opening its module — makes it fail closed ({@link ClassClosing}): defined, or retransformed, with every
 * method throwing, so a lock-wrapped method never runs unlocked; reported at ERROR (and in JMX Problems). Every
 * throwable counts, {@link Error}s included: the JDK would swallow one escaping {@code transform} and define the class
 * unwoven.
 */
final class GatedTransformer implements ClassFileTransformer {
    private final NameFilter filter;
    private final MethodPlanner planner;
    private final Binder binder;
    private final AgentReport report;
    private final Instrumentation inst;
    /** What {@link AsmWeaver} made, per loader and class: a later retransformation must keep the added methods. */
    private final Map<ClassLoader, Map<String, byte[]>> asmWoven = new WeakHashMap<>();
    /** Loaded classes whose retransformation the JVM refused: the next one makes them fail. */
    private final Map<Class<?>, Throwable> toClose = new ConcurrentHashMap<>();

    private final ClassClosing closing;

    GatedTransformer(
            NameFilter filter, MethodPlanner planner, Binder binder, AgentReport report, Instrumentation inst) {
        this.filter = filter;
        this.planner = planner;
        this.binder = binder;
        this.report = report;
        this.inst = inst;
        this.closing = new ClassClosing(filter, report);
        // loaded now, not inside a transformation: a class first loaded while the JVM retransforms another can fail
        // with a duplicate definition, and that resolution error then sticks to every later call
        InjectedFault.at("install", "");
        Halt.class.getName();
    }

    @Override
    public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] bytes) {
        if (loader == null || className == null) {
            return null;
        }
        Plan[] plan = new Plan[1];
        try {
            if (!filter.mayMatch(className)) {
                return null;
            }
            if (redefined != null) {
                byte[] earlier = earlier(loader, className);
                if (earlier != null) {
                    return earlier;
                }
                Throwable forced = toClose.remove(redefined);
                if (forced != null) {
                    return closed(className, loader, redefined, bytes, null, forced);
                }
            }
            return weave(module, loader, className, redefined, bytes, plan);
        } catch (Throwable e) {
            // every throwable, Errors and (sneaky) checked exceptions too: the JDK ignores whatever a transformer
            // throws and defines the class unwoven, so nothing may escape from here
            try {
                return closed(className, loader, redefined, bytes, plan[0], e);
            } catch (Throwable again) {
                Halt.stop(className.replace('/', '.') + " could not be instrumented (" + e + ") nor made to fail ("
                        + again + ") and must not run without its lock");
                return null; // not reached: halt does not return
            }
        }
    }

    /** Has the next retransformation of {@code loaded} make it fail: the JVM refused the woven one ({@code cause}). */
    void closeOnRetransform(Class<?> loaded, Throwable cause) {
        toClose.put(loaded, cause);
    }

    private byte[] weave(
            Module module, ClassLoader loader, String className, Class<?> redefined, byte[] bytes, Plan[] planned) {
        String name = className.replace('/', '.');
        StartupStamps.mark("until-weave");
        // for a retransformation the planner reads the original class file (the JVM's bytes are reconstituted)
        InjectedFault.at("read", name);
        byte[] original = redefined != null ? TypeResolver.read(loader, name) : null;
        ClassModel model = ClassModel.read(original != null ? original : bytes);
        if (generated(model)) {
            return null;
        }
        InjectedFault.at("plan", name);
        Plan plan = planner.plan(model, TypeResolver.of(loader).with(name, model));
        planned[0] = plan;
        if (plan.methods().isEmpty()) {
            for (String problem : plan.problems()) {
                report.problem(problem);
            }
            return null;
        }
        InjectedFault.at("bind", name);
        List<Woven> woven = binder.bind(plan, loader);
        byte[] result = null;
        if (AsmWeaver.canWeave(model, redefined)) {
            try {
                InjectedFault.at("weave", name);
                result = AsmWeaver.weave(bytes, woven);
            } catch (RuntimeException | LinkageError e) {
                AgentLog.warn("ASM weaving of " + name + " failed, falling back to Byte Buddy: " + e);
            }
        }
        boolean byAsm = result != null;
        if (result == null) {
            InjectedFault.at("weave", name);
            result = ClassWeaver.weave(loader, name, redefined, bytes, woven);
        }
        InjectedFault.at("module", name);
        readBridge(module);
        binder.reportWoven(woven, loader);
        if (byAsm) {
            remember(loader, className, result);
        }
        StartupStamps.mark("woven");
        return result;
    }

    /** Any failure on a candidate class: it fails closed, and a later retransformation keeps it so. */
    private byte[] closed(
            String className, ClassLoader loader, Class<?> redefined, byte[] bytes, Plan plan, Throwable cause) {
        byte[] closed = closing.close(className.replace('/', '.'), loader, redefined != null, bytes, plan, cause);
        remember(loader, className, closed);
        return closed;
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
