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
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * The class file transformer the JVM calls for every class: classes of the boot loader and classes whose name no
 * rule can match ({@link NameFilter}) return at once, unchanged (their bytes stay identical). The rest are described
 * by Byte Buddy's type pool ({@link TypePools}, cached per class loader) and planned; a class with nothing to lock
 * stays unchanged too. Planned classes are woven by Byte Buddy ({@link ClassWeaver}: {@link LockAdvice} inlined, no
 * class format change), as they load and when retransformed alike. Any failure on a candidate class — reading, planning, binding,
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
    /** Classes defined failing closed, per loader: a later retransformation (another agent's) keeps them so. */
    private final Map<ClassLoader, Map<String, byte[]>> closedClasses = new WeakHashMap<>();
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
                        + again + "), and the methods " + rulesNaming(className) + " name must not run without their"
                        + " lock");
                return null; // not reached: halt does not return
            }
        }
    }

    /** The rule lines that can name the class, for the last-resort message (which must come out even if this fails). */
    private String rulesNaming(String className) {
        try {
            return String.join(", ", filter.rulesNaming(className));
        } catch (Throwable e) {
            return "the rules naming it (not listed: " + e + ")";
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
        byte[] original = redefined != null ? TypePools.read(loader, name) : null;
        TypePool pool = TypePools.of(loader, name, original != null ? original : bytes);
        TypeDescription type = pool.describe(name).resolve();
        if (generated(type)) {
            return null;
        }
        InjectedFault.at("plan", name);
        Plan plan = planner.plan(type, pool);
        planned[0] = plan;
        if (plan.methods().isEmpty()) {
            for (String problem : plan.problems()) {
                report.problem(problem);
            }
            return null;
        }
        InjectedFault.at("bind", name);
        List<Woven> woven = binder.bind(plan, loader);
        InjectedFault.at("weave", name);
        byte[] result = ClassWeaver.weave(loader, name, redefined, bytes, woven, type, pool);
        InjectedFault.at("module", name);
        readBridge(module);
        binder.reportWoven(woven, loader);
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
    private static boolean generated(TypeDescription type) {
        String n = type.getName();
        return type.isSynthetic() || n.contains("$$") || n.contains("$ByteBuddy$") || n.contains("$Proxy");
    }

    private synchronized byte[] earlier(ClassLoader loader, String className) {
        Map<String, byte[]> m = closedClasses.get(loader);
        return m == null ? null : m.get(className);
    }

    private synchronized void remember(ClassLoader loader, String className, byte[] woven) {
        Map<String, byte[]> m = closedClasses.get(loader);
        if (m == null) {
            m = new ConcurrentHashMap<>();
            closedClasses.put(loader, m);
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
