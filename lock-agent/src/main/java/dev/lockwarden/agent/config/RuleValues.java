package dev.lockwarden.agent.config;

import dev.lockwarden.LockOptions;
import dev.lockwarden.OnBusy;
import dev.lockwarden.config.Durations;
import dev.lockwarden.spi.ReplicaAckSpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads and checks the option values of one rule line; every problem is added as {@code file:line: problem — fix}. */
final class RuleValues {
    private final String where;
    private final List<String> problems;
    private final Map<String, String> options;

    RuleValues(String where, List<String> problems, Map<String, String> options) {
        this.where = where;
        this.problems = problems;
        this.options = options;
    }

    // plain ifs rather than Optional.map/ifPresent: this runs in premain, where a first lambda costs start-up time

    Optional<Duration> ttl() {
        Optional<Duration> ttl = duration("ttl");
        if (ttl.isPresent()) {
            try {
                LockOptions.ttl(ttl.get());
            } catch (IllegalArgumentException e) {
                problem(e.getMessage().replace("Duration.ofSeconds(30)", "ttl=30s"), "write e.g. ttl=30s");
            }
        }
        return ttl;
    }

    Optional<Duration> waitUpTo() {
        Optional<Duration> wait = duration("wait");
        if (wait.isPresent() && wait.get().isNegative()) {
            problem("wait " + wait.get() + " is negative", "write wait=0s to fail at once or e.g. wait=5s");
        }
        return wait;
    }

    /** Checked against the rule's TTL; a rule without ttl= is checked when the lock is first taken. */
    Optional<Duration> holdAtLeast(Optional<Duration> ttl) {
        Optional<Duration> hold = duration("holdAtLeast");
        if (hold.isPresent()) {
            Duration h = hold.get();
            if (h.isNegative()) {
                problem("holdAtLeast " + h + " is negative", "write e.g. holdAtLeast=30s");
            } else if (ttl.isPresent() && h.compareTo(ttl.get()) > 0) {
                problem(
                        "holdAtLeast " + h + " is longer than ttl " + ttl.get(),
                        "raise ttl= to at least holdAtLeast, e.g. ttl=5m holdAtLeast=1m");
            }
        }
        return hold;
    }

    /**
     * {@code replicaAcks=1/100ms} (replicas/timeout) or {@code off}: the form, the timeout against the rule's TTL and
     * the agent's Redis timeout; against the manager's default TTL when the lock is first taken.
     */
    Optional<ReplicaAckSpec> replicaAcks(Optional<Duration> ttl) {
        String v = options.get("replicaAcks");
        if (v == null) {
            return Optional.empty();
        }
        String fix = "write e.g. replicaAcks=1/100ms (1 replica within 100 ms) or replicaAcks=off";
        try {
            ReplicaAckSpec acks = ReplicaAckSpec.parse(v, "replicaAcks");
            acks.applyTo(LockOptions.ttl(ttl.isPresent() ? ttl.get() : LockOptions.MAX_TTL));
            if (acks.replicas() > 0 && acks.timeout().compareTo(TopologyCheck.REDIS_TIMEOUT) >= 0) {
                problem(
                        "replicaAcks timeout " + acks.timeout().toMillis() + " ms is not shorter than the agent's"
                                + " Redis timeout (" + TopologyCheck.REDIS_TIMEOUT.toMillis() + " ms)",
                        "shorten it, e.g. replicaAcks=" + acks.replicas() + "/500ms");
            }
            return Optional.of(acks);
        } catch (IllegalArgumentException e) {
            problem(e.getMessage(), fix);
            return Optional.empty();
        }
    }

    OnBusy onBusy() {
        String v = options.get("onBusy");
        if (v == null) {
            return OnBusy.FAIL;
        }
        try {
            return OnBusy.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(
                    "onBusy=" + v + " is not FAIL or SKIP",
                    "use onBusy=FAIL (throw LockNotAcquiredException)"
                            + " or onBusy=SKIP (skip the body, return null/0/false); to wait, set wait=5s");
            return OnBusy.FAIL;
        }
    }

    boolean autoRefresh() {
        String v = options.get("autoRefresh");
        if (v == null) {
            return true;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        problem(
                "autoRefresh=" + v + " is not true or false",
                "write autoRefresh=true (watchdog keeps the lock) or autoRefresh=false");
        return true;
    }

    /** An enum option written in any case; {@code fallback} when absent. */
    <E extends Enum<E>> E choice(String option, Class<E> type, E fallback, String fix) {
        String v = options.get(option);
        if (v == null) {
            return fallback;
        }
        try {
            return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            problem(
                    option + "=" + v + " is not one of "
                            + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT),
                    "use " + fix);
            return fallback;
        }
    }

    private Optional<Duration> duration(String name) {
        String v = options.get(name);
        if (v == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Durations.parse(v, name));
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
            return Optional.of(Duration.ofSeconds(1));
        }
    }

    private void problem(String problem, String fix) {
        problems.add(where + ": " + problem + " — " + fix);
    }
}
