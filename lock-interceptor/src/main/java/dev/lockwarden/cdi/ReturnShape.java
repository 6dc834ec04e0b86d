package dev.lockwarden.cdi;

import dev.lockwarden.OnBusy;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a {@code @Locked} method returns, decided once at deployment: whether the lock must follow
 * a {@code CompletionStage} ({@link #async()}) and what {@code SKIP} returns instead of running it.
 *
 * @param async     the method returns {@code CompletionStage} / {@code CompletableFuture}: the lock is
 *                  held until the stage completes
 * @param skipValue a fresh value per call for {@code onBusy = SKIP}, or null when SKIP is not allowed
 */
record ReturnShape(boolean async, Supplier<Object> skipValue) {

    /** Classifies {@code method}'s return type; reports (naming {@code where}) types the lock cannot cover. */
    static ReturnShape of(Method method, OnBusy onBusy, String where, Consumer<String> problems) {
        Class<?> type = method.getReturnType();
        if (type == CompletionStage.class || type == CompletableFuture.class) {
            Object inner = isOptional(stageArgument(method.getGenericReturnType())) ? Optional.empty() : null;
            return new ReturnShape(true, () -> CompletableFuture.completedFuture(inner));
        }
        if (CompletionStage.class.isAssignableFrom(type)) {
            problems.accept(
                    "@Locked on " + where + " returns " + type.getName() + ": the lock follows a stage only when the"
                            + " declared type is CompletionStage or CompletableFuture. Declare one of those as the return type");
            return null;
        }
        if (Future.class.isAssignableFrom(type) || Flow.Publisher.class.isAssignableFrom(type) || isReactive(type)) {
            problems.accept(
                    "@Locked on " + where + " returns " + type.getName() + ": the lock would be released when the"
                            + " method returns, while the asynchronous work still runs unlocked. Return CompletionStage or"
                            + " CompletableFuture (the lock is then held until it completes), or lock inside the asynchronous work");
            return null;
        }
        Supplier<Object> skip = syncDefault(type);
        if (onBusy == OnBusy.SKIP && skip == null) {
            problems.accept("@Locked(onBusy = SKIP) on " + where + " returns " + type.getName() + ", which has no value"
                    + " meaning \"skipped\" (null would reach callers that expect a result). Return void, a primitive,"
                    + " Optional<" + type.getSimpleName() + "> or a CompletionStage, or use onBusy = FAIL");
            return null;
        }
        return new ReturnShape(false, skip);
    }

    private static Supplier<Object> syncDefault(Class<?> type) {
        if (type == void.class || type == Void.class) {
            return () -> null;
        }
        if (type.isPrimitive()) {
            Object zero = Array.get(Array.newInstance(type, 1), 0);
            return () -> zero;
        }
        if (type == Optional.class) {
            return Optional::empty;
        }
        if (type == OptionalInt.class) {
            return OptionalInt::empty;
        }
        if (type == OptionalLong.class) {
            return OptionalLong::empty;
        }
        if (type == OptionalDouble.class) {
            return OptionalDouble::empty;
        }
        return null;
    }

    private static Type stageArgument(Type generic) {
        return generic instanceof ParameterizedType p ? p.getActualTypeArguments()[0] : Object.class;
    }

    private static boolean isOptional(Type type) {
        Type raw = type instanceof ParameterizedType p ? p.getRawType() : type;
        return raw == Optional.class;
    }

    /** Reactive Streams / Mutiny / Reactor types, by name: none of them is a dependency of ours. */
    private static boolean isReactive(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().startsWith("io.smallrye.mutiny.") || c.getName().startsWith("reactor.core.publisher.")) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (i.getName().equals("org.reactivestreams.Publisher") || isReactive(i)) {
                    return true;
                }
            }
        }
        return false;
    }
}
