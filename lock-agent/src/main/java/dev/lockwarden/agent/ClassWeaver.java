package dev.lockwarden.agent;

import dev.lockwarden.agent.Binder.Woven;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.ClassFileVersion;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.TypeInitializer;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.implementation.bytecode.constant.IntegerConstant;
import net.bytebuddy.implementation.bytecode.constant.TextConstant;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.pool.TypePool;

/**
 * The agent's one weaver, Byte Buddy's {@link Advice}: {@link LockAdvice} (or {@link UnreachableAdvice}) inlined into
 * each planned method, without class format changes (no new fields or methods), so the same weaving serves a class as
 * it loads and an already loaded one being retransformed (which must keep its shape): static and instance methods,
 * interfaces' default methods, class files of every version the bundled ASM reads (older than Java 7 included).
 * The advice is applied as Byte Buddy's own type writer applies a visitor wrapper (as {@code ByteBuddy.decorate} and
 * the agent builder's {@code DECORATE} strategy do), but driven here directly by the reader and writer of Byte Buddy's
 * bundled ASM: the planner has already described the class, so the builder, method graph and type writer machinery
 * (some 200 classes loaded before the first woven class could be defined) is not needed. Every other method's code
 * is copied unchanged.
 */
final class ClassWeaver {
    private static final class Holder {
        // the advice classes described from their class files, not by reflection: reflection on their annotations
        // spins JDK annotation proxies, start-up time the application waits for
        static final ClassFileLocator AGENT_CLASSES =
                ClassFileLocator.ForClassLoader.of(ClassWeaver.class.getClassLoader());
        static final TypePool AGENT_POOL = TypePool.Default.of(AGENT_CLASSES);
        static final TypeDescription LOCK_ADVICE =
                AGENT_POOL.describe(LockAdvice.class.getName()).resolve();
        static final TypeDescription UNREACHABLE_ADVICE =
                AGENT_POOL.describe(UnreachableAdvice.class.getName()).resolve();
        // constants bound as stack manipulations of known type: binding a plain value would first classify it
        // against Byte Buddy's JavaConstant types, whose set-up creates a dozen reflective dispatchers
        static final TypeDescription.Generic INT =
                TypeDescription.ForLoadedType.of(int.class).asGenericType();
        static final TypeDescription.Generic STRING =
                TypeDescription.ForLoadedType.of(String.class).asGenericType();
    }

    private ClassWeaver() {}

    /** The new class file. */
    static byte[] weave(
            ClassLoader loader,
            String name,
            Class<?> redefined,
            byte[] bytes,
            List<Woven> woven,
            TypeDescription described,
            TypePool pool) {
        // a loaded class is described from the class itself (as Byte Buddy's HYBRID strategy does): the bytes the
        // JVM hands over for a retransformation are reconstituted and may lack attributes such as parameter names
        TypeDescription type = redefined != null ? TypeDescription.ForLoadedType.of(redefined) : described;
        Map<String, MethodDescription> declared = new HashMap<>();
        for (MethodDescription m : type.getDeclaredMethods()) {
            declared.put(key(m), m);
        }
        Map<String, Target> targets = new HashMap<>();
        for (Woven w : woven) {
            String key = key(w.planned().method());
            MethodDescription method = declared.get(key);
            if (method == null) {
                throw new IllegalStateException("the planned method " + key + " is not declared by " + name);
            }
            Advice advice = w.failMessage() != null
                    ? Advice.withCustomMapping()
                            .bind(FailMessage.class, new TextConstant(w.failMessage()), Holder.STRING)
                            .to(Holder.UNREACHABLE_ADVICE, Holder.AGENT_CLASSES)
                    : lockAdvice(w.id(), unreachable(name, method));
            targets.put(key, new Target(method, advice));
        }
        return write(name, bytes, type, pool, targets);
    }

    /**
     * Weaves a small class of the agent's own, without defining it, to load and initialise the weaving code before
     * the application's first lock-wrapped class needs it ({@link WeaverWarmUp}); returns the woven bytes.
     */
    static byte[] warmUp(String name, byte[] bytes, String method) {
        TypePool pool = TypePools.of(
                new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes), Holder.AGENT_CLASSES));
        TypeDescription type = pool.describe(name).resolve();
        Map<String, Target> targets = new HashMap<>();
        for (MethodDescription m : type.getDeclaredMethods()) {
            if (m.getInternalName().equals(method)) {
                targets.put(key(m), new Target(m, lockAdvice(-1, unreachable(name, m))));
            }
        }
        return write(name, bytes, type, pool, targets);
    }

    private static byte[] write(
            String name, byte[] bytes, TypeDescription type, TypePool pool, Map<String, Target> targets) {
        ClassFileVersion version = ClassFileVersion.ofClassFile(bytes);
        Implementation.Context context = Implementation.Context.Disabled.Factory.INSTANCE.make(
                type, null, TypeInitializer.None.INSTANCE, version, version);
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        Weaving weaving = new Weaving(writer, type, context, pool, targets);
        reader.accept(weaving, 0);
        if (weaving.done != targets.size()) {
            throw new IllegalStateException(
                    "woven " + weaving.done + " of the " + targets.size() + " planned methods of " + name);
        }
        return writer.toByteArray();
    }

    /** {@link LockAdvice} with its binding id and the message for an unreachable bridge bound as constants. */
    private static Advice lockAdvice(int id, String unreachable) {
        return Advice.withCustomMapping()
                .bind(BindingId.class, IntegerConstant.forValue(id), Holder.INT)
                .bind(FailMessage.class, new TextConstant(unreachable), Holder.STRING)
                .to(Holder.LOCK_ADVICE, Holder.AGENT_CLASSES);
    }

    /** A method's name and descriptor, as the class file's visitor sees it. */
    private static String key(MethodDescription m) {
        return m.getInternalName() + m.getDescriptor();
    }

    /** Why a call fails if the bridge, found when the class was woven, cannot be linked when it runs. */
    private static String unreachable(String name, MethodDescription method) {
        return AgentLog.PREFIX + name + "#" + method.getInternalName() + " is lock-wrapped but its class loader cannot"
                + " see dev.lockwarden.agent.bootstrap.LockBridge, so it does not run unlocked — let the loader delegate"
                + " that package to the boot loader (JBoss: -Djboss.modules.system.pkgs=dev.lockwarden.agent.bootstrap;"
                + " OSGi: org.osgi.framework.bootdelegation=dev.lockwarden.agent.bootstrap)";
    }

    /** One method and the advice woven into it. */
    private record Target(MethodDescription method, Advice advice) {}

    /** Wraps the planned methods' code with their advice; the rest of the class passes through unchanged. */
    private static final class Weaving extends ClassVisitor {
        private final TypeDescription type;
        private final Implementation.Context context;
        private final TypePool pool;
        private final Map<String, Target> targets;
        int done;

        Weaving(
                ClassWriter writer,
                TypeDescription type,
                Implementation.Context context,
                TypePool pool,
                Map<String, Target> targets) {
            super(net.bytebuddy.utility.OpenedClassReader.ASM_API, writer);
            this.type = type;
            this.context = context;
            this.pool = pool;
            this.targets = targets;
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            Target t = targets.get(name + descriptor);
            if (t == null || mv == null) {
                return mv;
            }
            done++;
            return t.advice().wrap(type, t.method(), mv, context, pool, 0, 0);
        }
    }
}
