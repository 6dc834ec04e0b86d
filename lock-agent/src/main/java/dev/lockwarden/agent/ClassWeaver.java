package dev.lockwarden.agent;

import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.named;

import dev.lockwarden.agent.Binder.Woven;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.VisibilityBridgeStrategy;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.matcher.LatentMatcher;
import net.bytebuddy.pool.TypePool;

/**
 * Weaves with Byte Buddy: {@link LockAdvice} (or {@link UnreachableAdvice}) inlined into each planned method, without
 * class format changes (no new fields or methods), which is what retransformation requires — classes loaded before
 * the agent, and those {@link AsmWeaver} does not take (interfaces, class files older than Java 7). Byte Buddy is
 * set up only when first needed, so a start-up that weaves only new classes never loads it.
 */
final class ClassWeaver {
    private static final class Holder {
        static final ByteBuddy BYTE_BUDDY = new ByteBuddy()
                .with(TypeValidation.DISABLED)
                .with(Implementation.Context.Disabled.Factory.INSTANCE)
                .with(InstrumentedType.Factory.Default.FROZEN)
                .with(VisibilityBridgeStrategy.Default.NEVER)
                .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);
    }

    private ClassWeaver() {}

    /** The new class file. */
    static byte[] weave(ClassLoader loader, String name, Class<?> redefined, byte[] bytes, List<Woven> woven) {
        ClassFileLocator locator = new ClassFileLocator.Compound(
                ClassFileLocator.Simple.of(name, bytes), ClassFileLocator.ForClassLoader.of(loader));
        TypePool pool = TypePool.Default.WithLazyResolution.of(locator);
        // a loaded class is described from the class itself (as Byte Buddy's HYBRID strategy does): the bytes the
        // JVM hands over for a retransformation are reconstituted and may lack attributes such as parameter names
        TypeDescription type = redefined != null
                ? TypeDescription.ForLoadedType.of(redefined)
                : pool.describe(name).resolve();
        DynamicType.Builder<?> b =
                Holder.BYTE_BUDDY.redefine(type, locator).ignoreAlso(LatentMatcher.ForSelfDeclaredMethod.NOT_DECLARED);
        for (Woven w : woven) {
            var method = named(w.planned().method().name())
                    .and(hasDescriptor(w.planned().method().descriptor()));
            b = b.visit(
                    w.failMessage() != null
                            ? Advice.withCustomMapping()
                                    .bind(FailMessage.class, w.failMessage())
                                    .to(UnreachableAdvice.class)
                                    .on(method)
                            : Advice.withCustomMapping()
                                    .bind(BindingId.class, w.id())
                                    .to(LockAdvice.class)
                                    .on(method));
        }
        return b.make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
    }
}
