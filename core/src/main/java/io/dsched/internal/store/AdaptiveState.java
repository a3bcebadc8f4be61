package io.dsched.internal.store;

import java.time.Instant;

/**
 * The state of a target's adaptive concurrency limit, as its row in {@code dsched_limit} keeps it
 * and each claim under the row's lock moves it on: the limit it allows now, when its window began,
 * and what the nodes counted in the window. The rule is {@link TargetLimits.Adaptive}'s.
 *
 * @param max the most running at once it allows now, or 0 while it does not adapt
 * @param adaptedAt when its window began, or {@code null}
 * @param outcomes the attempts ended in the window
 * @param failures of those, the ones that failed
 * @param signals the times a load signal said overloaded in the window
 */
record AdaptiveState(int max, Instant adaptedAt, int outcomes, int failures, int signals) {

    /**
     * Adds what a node counted, and adjusts the limit if the window is over.
     * @param rule how the limit adapts
     * @param ceiling the {@code maxConcurrent} in force, which it never exceeds
     * @param counted what the claiming node counted since its last claim
     * @param at the time of the claim
     * @return the state to write
     */
    AdaptiveState next(TargetLimits.Adaptive rule, int ceiling, LimitOutcomes.Counted counted, Instant at) {
        int ended = this.outcomes + counted.outcomes();
        int failed = this.failures + counted.failures();
        int said = this.signals + counted.signals();
        if (this.max <= 0 || this.adaptedAt == null) {
            // a new adaptive limit starts at the limit in force
            return new AdaptiveState(ceiling, at, ended, failed, said);
        }
        int limit = Math.min(this.max, ceiling);
        if (this.adaptedAt.isAfter(at.plus(rule.window()))) {
            // begun by a node whose clock runs more than a window ahead of this one's: begun again now,
            // so that the window ends for the nodes behind it too
            return new AdaptiveState(limit, at, ended, failed, said);
        }
        if (at.isBefore(this.adaptedAt.plus(rule.window()))) {
            return new AdaptiveState(limit, this.adaptedAt, ended, failed, said);
        }
        boolean failing = ended > 0 && failed >= rule.failureRatio() * ended;
        if (said > 0 || (failing && ended >= rule.minOutcomes())) {
            limit = Math.max(Math.min(rule.min(), ceiling), limit / 2);
        } else if (ended > 0 && !failing) {
            limit = Math.min(ceiling, limit + 1);
        }
        return new AdaptiveState(limit, at, 0, 0, 0);
    }
}
