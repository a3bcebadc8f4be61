package io.dsched.internal.observation;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.execution.AttemptObserver;
import io.dsched.observation.DefaultExecutionObservationConvention;
import io.dsched.observation.ExecutionObservationContext;
import io.dsched.observation.ExecutionObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a {@code dsched.execution} observation of each attempt this node runs: started just
 * before the job's method, in scope on the attempt's thread until its outcome is recorded (so
 * that spans and log lines of the job belong to it), then stopped with the outcome and the
 * failure, if any. An attempt whose fire was submitted in a trace continues that trace: the
 * stored carrier is read, by the fire's idempotency key, only while observations are recorded.
 */
public final class ExecutionObservations implements AttemptObserver {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionObservations.class);

    private static final DefaultExecutionObservationConvention DEFAULT_CONVENTION =
            new DefaultExecutionObservationConvention();

    private final ObservationRegistry registry;

    private final ExecutionObservationConvention convention;

    private final Function<String, Optional<String>> traceCarriers;

    private final String nodeId;

    /**
     * Creates the observer.
     * @param registry the registry to observe in; {@link ObservationRegistry#NOOP} observes nothing
     * @param convention the convention that replaces the default one, or {@code null}
     * @param traceCarriers the stored trace context of a fire, by its idempotency key
     * @param nodeId this node
     */
    public ExecutionObservations(
            ObservationRegistry registry,
            ExecutionObservationConvention convention,
            Function<String, Optional<String>> traceCarriers,
            String nodeId) {
        this.registry = registry;
        this.convention = convention;
        this.traceCarriers = traceCarriers;
        this.nodeId = nodeId;
    }

    @Override
    public Observed start(ExecutionRecord attempt) {
        if (this.registry.isNoop()) {
            return Observed.NONE;
        }
        try {
            ExecutionObservationContext context = new ExecutionObservationContext(attempt, this.nodeId);
            Observation observation =
                    Observation.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context, this.registry);
            if (observation.isNoop()) {
                return Observed.NONE;
            }
            context.setCarrier(carrier(attempt));
            observation.start();
            return new Running(observation, observation.openScope(), context);
        } catch (RuntimeException ex) {
            logger.warn("Not observing attempt {} of '{}': {}", attempt.attempt(), attempt.jobName(), ex.toString());
            return Observed.NONE;
        }
    }

    private Map<String, String> carrier(ExecutionRecord attempt) {
        // a scheduled fire, first attempt or retry, was never submitted: no trace to look up
        if (attempt.origin() == ExecutionOrigin.SCHEDULE
                || attempt.idempotencyKey()
                        .equals(ExecutionRecord.idempotencyKey(attempt.jobName(), attempt.scheduledAt()))) {
            return Map.of();
        }
        try {
            return this.traceCarriers
                    .apply(attempt.idempotencyKey())
                    .map(TraceCarriers::decode)
                    .orElse(Map.of());
        } catch (RuntimeException ex) {
            logger.debug("Could not read the trace context of '{}': {}", attempt.idempotencyKey(), ex.getMessage());
            return Map.of();
        }
    }

    private static final class Running implements Observed {

        private final Observation observation;

        private final Observation.Scope scope;

        private final ExecutionObservationContext context;

        Running(Observation observation, Observation.Scope scope, ExecutionObservationContext context) {
            this.observation = observation;
            this.scope = scope;
            this.context = context;
        }

        @Override
        public void failed(Throwable failure) {
            try {
                this.observation.error(failure);
            } catch (RuntimeException ex) {
                logger.warn("Could not record the failure of an observed attempt: {}", ex.toString());
            }
        }

        @Override
        public void stop(Outcome outcome) {
            this.context.setOutcome(outcome);
            try {
                this.scope.close();
            } catch (RuntimeException ex) {
                logger.warn("Could not close the scope of an observed attempt: {}", ex.toString());
            }
            try {
                this.observation.stop();
            } catch (RuntimeException ex) {
                logger.warn("Could not stop the observation of an attempt: {}", ex.toString());
            }
        }
    }
}
