package dev.lockwarden.cdi;

import dev.lockwarden.KeyTemplate;
import dev.lockwarden.LockOptions;
import dev.lockwarden.LockSource;
import dev.lockwarden.OnBusy;
import dev.lockwarden.config.Durations;
import dev.lockwarden.spi.LockPolicy;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What the interceptor needs for one {@code @Locked} method, parsed and validated once.
 *
 * @param id        {@code com.x.Billing#charge}, recorded as the holder's method on the dashboard
 * @param key       the parsed lock name template
 * @param ttl       explicit TTL, or null for the LockManager's default
 * @param waitUpTo  explicit wait budget, or null for the LockManager's default
 * @param onBusy    FAIL or SKIP
 * @param shape     sync or async (CompletionStage), and what SKIP returns
 * @param holdAtLeast minimum time the lock stays taken after acquisition (zero = release at once)
 * @param replicaAcks replica acknowledgement of this method, or null for the LockManager's default
 */
record LockedMethod(
        String id,
        KeyTemplate key,
        Duration ttl,
        Duration waitUpTo,
        boolean autoRefresh,
        OnBusy onBusy,
        ReturnShape shape,
        Duration holdAtLeast,
        ReplicaAckSpec replicaAcks) {

    /** The policy as lock-core's SPI describes it for every declarative entry point (the agent's rules too). */
    LockPolicy policy() {
        return new LockPolicy(
                key, Optional.ofNullable(ttl), Optional.ofNullable(waitUpTo), onBusy, autoRefresh, holdAtLeast);
    }

    /** Options for one call, on top of the manager's defaults (lockwarden.ttl / lockwarden.wait). */
    LockOptions options(LockOptions defaults) {
        try {
            LockOptions o = policy().options(defaults, LockSource.CDI, id);
            return replicaAcks == null ? o : replicaAcks.applyTo(o);
        } catch (
                IllegalArgumentException
                        e) { // holdAtLeast against the manager's default TTL: checked before the body runs
            throw new IllegalArgumentException(
                    "@Locked on " + id + ": " + e.getMessage() + " (the TTL is the LockManager's"
                            + " default; set @Locked(ttl) explicitly, or shorten the timeout)",
                    e);
        }
    }

    /**
     * Validates {@code locked} on {@code method} of bean class {@code beanClass}; reports each problem
     * (naming {@code Class#method(params)} and the fix) and returns null if there was any.
     */
    static LockedMethod create(Class<?> beanClass, Method method, Locked locked, Consumer<String> report) {
        String where = signature(beanClass, method);
        List<String> found = new ArrayList<>();
        Consumer<String> problems = found::add;
        int mods = method.getModifiers();
        if (Modifier.isPrivate(mods) || Modifier.isStatic(mods)) {
            problems.accept("@Locked on " + where + " has no effect: CDI never intercepts "
                    + (Modifier.isPrivate(mods) ? "private" : "static") + " methods. Make it a "
                    + (Modifier.isPrivate(mods) ? "public, protected or package-private" : "non-static")
                    + " method of the bean, or remove @Locked");
        }
        if (Modifier.isFinal(mods)) {
            problems.accept(
                    "@Locked on " + where + ": the container cannot intercept a final method. Remove 'final' from it,"
                            + " or remove @Locked");
        }
        if (Modifier.isFinal(beanClass.getModifiers())) {
            problems.accept(
                    "@Locked on " + where + ": class " + beanClass.getName() + " is final, so the container cannot"
                            + " intercept it. Remove 'final' from the class, or remove @Locked");
        }
        KeyTemplate key = null;
        String template = locked.value().isEmpty() ? defaultName(beanClass, method) : locked.value();
        try {
            key = KeyTemplate.parse(template, parameterNames(method));
            TemplateTypes.check(template, method, parameterNames(method), where, problems);
        } catch (IllegalArgumentException e) {
            problems.accept("@Locked(\"" + template + "\") on " + where + ": " + e.getMessage()
                    + (hasNames(method) ? "" : ". This class was compiled without -parameters, so only indexes work"));
        }
        ReturnShape shape = ReturnShape.of(method, locked.onBusy(), where, problems);
        Duration ttl = duration(locked.ttl(), "@Locked(ttl) on " + where, problems);
        if (ttl != null) {
            check(() -> LockOptions.ttl(ttl), "@Locked(ttl) on " + where, problems);
        }
        Duration wait = duration(locked.waitUpTo(), "@Locked(waitUpTo) on " + where, problems);
        if (wait != null) {
            check(() -> LockOptions.defaults().waitUpTo(wait), "@Locked(waitUpTo) on " + where, problems);
        }
        Duration hold = duration(locked.holdAtLeast(), "@Locked(holdAtLeast) on " + where, problems);
        if (hold != null) {
            Duration against = ttl != null ? ttl : LockOptions.MAX_TTL; // the manager's default TTL is checked per call
            check(() -> LockOptions.ttl(against).holdAtLeast(hold), "@Locked(holdAtLeast) on " + where, problems);
        }
        ReplicaAckSpec acks = replicaAcks(locked.replicaAcks(), ttl, "@Locked(replicaAcks) on " + where, problems);
        if (!found.isEmpty()) {
            found.forEach(report);
            return null;
        }
        String id = beanClass.getName() + "#" + method.getName();
        return new LockedMethod(
                id,
                key,
                ttl,
                wait,
                locked.autoRefresh(),
                locked.onBusy(),
                shape,
                hold == null ? Duration.ZERO : hold,
                acks);
    }

    /** {@code com.x.Billing#charge(String, long)}. */
    static String signature(Class<?> beanClass, Method method) {
        return beanClass.getName() + "#" + method.getName()
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getSimpleName)
                        .collect(Collectors.joining(", ", "(", ")"));
    }

    private static Duration duration(String text, String where, Consumer<String> problems) {
        if (text.isEmpty()) {
            return null; // inherit the LockManager's default
        }
        try {
            return Durations.parse(text, where);
        } catch (IllegalArgumentException e) {
            problems.accept(e.getMessage());
            return null;
        }
    }

    /** Form and, when the TTL is explicit, timeout &lt; TTL; the topology and the default TTL are checked per call. */
    private static ReplicaAckSpec replicaAcks(String text, Duration ttl, String where, Consumer<String> problems) {
        if (text.isEmpty()) {
            return null; // the LockManager's default
        }
        try {
            ReplicaAckSpec acks = ReplicaAckSpec.parse(text, where);
            acks.applyTo(LockOptions.ttl(ttl != null ? ttl : LockOptions.MAX_TTL));
            return acks;
        } catch (IllegalArgumentException e) {
            problems.accept(e.getMessage().startsWith(where) ? e.getMessage() : where + ": " + e.getMessage());
            return null;
        }
    }

    private static void check(Runnable validation, String where, Consumer<String> problems) {
        try {
            validation.run();
        } catch (IllegalArgumentException e) {
            problems.accept(where + ": " + e.getMessage());
        }
    }

    private static List<String> parameterNames(Method method) {
        return Arrays.stream(method.getParameters()).map(Parameter::getName).toList();
    }

    private static boolean hasNames(Method method) {
        return Arrays.stream(method.getParameters()).allMatch(Parameter::isNamePresent);
    }

    /** {@code @Locked} without a value: one lock per method, {@code Billing.charge}. */
    private static String defaultName(Class<?> beanClass, Method method) {
        return beanClass.getSimpleName() + "." + method.getName();
    }
}
