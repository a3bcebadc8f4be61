package io.dsched.observation;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobTimeoutException;
import io.dsched.execution.Outcome;
import io.micrometer.common.KeyValues;
import java.util.Locale;

/**
 * The default names and tags of the {@code dsched.execution} observation. Its low-cardinality key
 * values are bounded by the jobs the application declares:
 *
 * <ul>
 *   <li>{@code job}: the job's or handler's name;
 *   <li>{@code origin}: why the attempt exists: {@code schedule}, {@code retry}, {@code recovery},
 *       {@code replay}, {@code manual} or {@code one_off};
 *   <li>{@code attempt}: {@code first} or {@code retry} (any later attempt);
 *   <li>{@code outcome}: {@code succeeded}, {@code failed} (a retry follows), {@code timed_out},
 *       {@code dead_lettered}, {@code lost} (the node had lost its claim), or {@code unknown} while
 *       the attempt runs and when its outcome could not be recorded.
 * </ul>
 *
 * Its high-cardinality key values, on the span only: {@code execution.id}, {@code idempotency.key},
 * {@code attempt.number} and {@code node}.
 */
public class DefaultExecutionObservationConvention implements ExecutionObservationConvention {

    /** The name of the observation. */
    public static final String NAME = "dsched.execution";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(ExecutionObservationContext context) {
        ExecutionRecord execution = context.getExecution();
        return KeyValues.of(
                "job",
                execution.jobName(),
                "origin",
                execution.origin().name().toLowerCase(Locale.ROOT),
                "attempt",
                (execution.attempt() == 1) ? "first" : "retry",
                "outcome",
                outcome(context));
    }

    private static String outcome(ExecutionObservationContext context) {
        Outcome outcome = context.getOutcome();
        if (outcome == null) {
            return "unknown";
        }
        return switch (outcome) {
            case SUCCEEDED -> "succeeded";
            case DEAD_LETTERED -> "dead_lettered";
            case LOST -> "lost";
            case CANCELLED -> "cancelled";
            default -> (context.getError() instanceof JobTimeoutException) ? "timed_out" : "failed";
        };
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(ExecutionObservationContext context) {
        ExecutionRecord execution = context.getExecution();
        return KeyValues.of(
                "execution.id",
                String.valueOf(execution.id()),
                "idempotency.key",
                execution.idempotencyKey(),
                "attempt.number",
                String.valueOf(execution.attempt()),
                "node",
                context.getNodeId());
    }
}
