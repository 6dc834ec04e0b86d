package dev.lockwarden.agent;

import java.util.concurrent.atomic.LongAdder;

/** Counters of the agent's locked calls, read by the JMX bean. */
final class AgentStats {
    final LongAdder calls = new LongAdder();
    final LongAdder busy = new LongAdder();
    final LongAdder lost = new LongAdder();
    final LongAdder storeDown = new LongAdder();
}
