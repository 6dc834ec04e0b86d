package dev.lockwarden.agent;

import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;

import dev.lockwarden.agent.bootstrap.LockBridge;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.TypeResolutionStrategy;
import net.bytebuddy.dynamic.VisibilityBridgeStrategy;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.LatentMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * Weaves one class that passed the {@link NameFilter}: describes it from its class file (a {@link TypePool} over
 * the bytes being loaded and the class loader, so nothing is loaded), checks the rules' type matcher, and redefines
 * it with {@link RuleTransformer}'s advice, without class format changes (no new fields or methods, so
 * retransformation works). This is what Byte Buddy's {@code AgentBuilder} with {@code disableClassFormatChanges()}
 * does, without its set-up: building an {@code AgentBuilder} generated a class at start-up and loaded several
 * hundred Byte Buddy classes before {@code main}. A failure is reported (ERROR, JMX Problems) and the class loads
 * unchanged: a transformer cannot stop class loading.
 */
final class ClassWeaver {
    private final ElementMatcher<TypeDescription> types;
    private final RuleTransformer transformer;
    private final AgentReport report;
    private final Instrumentation inst;
    private final ByteBuddy byteBuddy = new ByteBuddy()
            .with(TypeValidation.DISABLED)
            .with(Implementation.Context.Disabled.Factory.INSTANCE)
            .with(InstrumentedType.Factory.Default.FROZEN)
            .with(VisibilityBridgeStrategy.Default.NEVER)
            .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE);

    ClassWeaver(ElementMatcher<TypeDescription> types, RuleTransformer transformer, AgentReport report, Instrumentation inst) {
        this.types = types;
        this.transformer = transformer;
        this.report = report;
        this.inst = inst;
    }

    /** The new class file, or null to keep the class as it is. */
    byte[] weave(Module module, ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain domain,
                 byte[] bytes) {
        String name = internalName.replace('/', '.');
        try {
            ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes),
                    ClassFileLocator.ForClassLoader.of(loader));
            TypePool pool = TypePool.Default.WithLazyResolution.of(locator);
            // a loaded class is described from the class itself (as Byte Buddy's HYBRID strategy does): the bytes the
            // JVM hands over for a retransformation are reconstituted and may lack attributes such as parameter names
            TypeDescription type = redefined != null ? TypeDescription.ForLoadedType.of(redefined) : pool.describe(name).resolve();
            if (!types.matches(type)) {
                return null;
            }
            DynamicType.Builder<?> builder = byteBuddy.redefine(type, locator).ignoreAlso(LatentMatcher.ForSelfDeclaredMethod.NOT_DECLARED);
            builder = transformer.transform(builder, type, loader, JavaModule.of(module), domain);
            byte[] woven = builder.make(TypeResolutionStrategy.Disabled.INSTANCE, pool).getBytes();
            readBridge(module);
            return woven;
        } catch (RuntimeException | LinkageError e) {
            report.problem("could not instrument " + name + " in class loader " + AgentReport.describe(loader)
                    + ", so its configured methods run WITHOUT locks: " + e);
            return null;
        }
    }

    /** Classes of a named module must be able to read the bridge's (unnamed, boot) module. */
    private void readBridge(Module module) {
        Module bridge = LockBridge.class.getModule();
        if (module != null && module.isNamed() && !module.canRead(bridge)) {
            inst.redefineModule(module, Set.of(bridge), Map.of(), Map.of(), Set.of(), Map.of());
        }
    }
}
