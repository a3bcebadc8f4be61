package io.dsched.internal.store;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.LoadSignal;
import io.dsched.execution.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts on this node the outcomes of the attempts of targets whose concurrency limit adapts, until
 * the node's next claim of the target adds them to the target's row ({@link AdaptiveState}); and
 * asks the application's {@link LoadSignal}s at that claim.
 */
public final class LimitOutcomes implements ExecutionListener {

    private static final Logger logger = LoggerFactory.getLogger(LimitOutcomes.class);

    private final Predicate<String> adapts;

    private final List<LoadSignal> signals;

    /** Ended and failed attempts counted since the last claim, by target. */
    private final Map<String, int[]> counts = new ConcurrentHashMap<>();

    /**
     * Creates the counts.
     * @param adapts whether a target's limit adapts, which alone are counted
     * @param signals the application's load signals
     */
    public LimitOutcomes(Predicate<String> adapts, List<LoadSignal> signals) {
        this.adapts = adapts;
        this.signals = List.copyOf(signals);
    }

    @Override
    public void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {
        boolean failed = outcome == Outcome.RETRY_SCHEDULED || outcome == Outcome.DEAD_LETTERED;
        if ((outcome != Outcome.SUCCEEDED && !failed) || !this.adapts.test(attempt.jobName())) {
            // neither a success nor a failure of the job's own: taken over, cancelled
            return;
        }
        this.counts.compute(attempt.jobName(), (name, count) -> {
            int[] counted = (count != null) ? count : new int[2];
            counted[0]++;
            counted[1] += failed ? 1 : 0;
            return counted;
        });
    }

    /**
     * Takes what was counted of a target since the last claim, and asks the load signals.
     * @param name the target
     * @return the counts, which are this claim's to write or {@link #giveBack}
     */
    Counted take(String name) {
        int[] counted = this.counts.remove(name);
        int said = 0;
        for (LoadSignal signal : this.signals) {
            try {
                said += signal.overloaded(name) ? 1 : 0;
            } catch (RuntimeException ex) {
                logger.warn("A load signal failed for '{}', read as not overloaded: {}", name, ex.toString());
            }
        }
        return (counted != null) ? new Counted(counted[0], counted[1], said) : new Counted(0, 0, said);
    }

    /** Puts back counts that a claim could not write, for the next claim. */
    void giveBack(String name, Counted counted) {
        if (counted.outcomes() == 0) {
            return;
        }
        this.counts.compute(name, (key, count) -> {
            int[] merged = (count != null) ? count : new int[2];
            merged[0] += counted.outcomes();
            merged[1] += counted.failures();
            return merged;
        });
    }

    /**
     * What a node counted of a target.
     *
     * @param outcomes the attempts ended
     * @param failures of those, the ones that failed
     * @param signals the load signals that said overloaded
     */
    record Counted(int outcomes, int failures, int signals) {

        static final Counted NONE = new Counted(0, 0, 0);
    }
}
