package io.dsched.observation;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import java.util.Map;

/**
 * What the {@code dsched.execution} observation of one attempt knows: the attempt, the node that
 * runs it and, once it is recorded, its outcome. Its carrier holds the propagation fields of the
 * trace the attempt's fire was submitted in (empty for a scheduled fire), so that a tracer
 * continues that trace.
 */
public class ExecutionObservationContext extends ReceiverContext<Map<String, String>> {

    private final ExecutionRecord execution;

    private final String nodeId;

    private Outcome outcome;

    /**
     * Creates the context of an attempt, with an empty carrier.
     * @param execution the claimed attempt
     * @param nodeId the node that runs it
     */
    public ExecutionObservationContext(ExecutionRecord execution, String nodeId) {
        super((carrier, key) -> carrier.get(key), Kind.CONSUMER);
        this.execution = execution;
        this.nodeId = nodeId;
        setCarrier(Map.of());
    }

    /**
     * Returns the attempt.
     * @return the claimed attempt, as claimed
     */
    public ExecutionRecord getExecution() {
        return this.execution;
    }

    /**
     * Returns the node that runs the attempt.
     * @return the node id
     */
    public String getNodeId() {
        return this.nodeId;
    }

    /**
     * Returns what became of the attempt.
     * @return the outcome, or {@code null} while it runs or if it could not be recorded
     */
    public Outcome getOutcome() {
        return this.outcome;
    }

    /**
     * Sets what became of the attempt.
     * @param outcome the outcome
     */
    public void setOutcome(Outcome outcome) {
        this.outcome = outcome;
    }
}
