package io.dsched.internal.observation;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobTimeoutException;
import io.dsched.execution.Outcome;
import io.dsched.internal.execution.AttemptObserver.Observed;
import io.dsched.observation.DefaultExecutionObservationConvention;
import io.dsched.observation.ExecutionObservationContext;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The {@code dsched.execution} observation of one attempt, in a test registry: its lifecycle, its
 * key values and where its carrier comes from.
 */
class ExecutionObservationsTests {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private final List<String> lookedUp = new ArrayList<>();

    private final Function<String, Optional<String>> carriers = (key) -> {
        this.lookedUp.add(key);
        return Optional.of("{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}");
    };

    @Test
    void aFailedAttemptIsObservedInScopeAndStoppedWithItsErrorAndOutcome() {
        ExecutionObservations observations = new ExecutionObservations(this.registry, null, this.carriers, "node-1");
        IllegalStateException failure = new IllegalStateException("partner down");

        Observed observed = observations.start(attempt(ExecutionOrigin.SCHEDULE, 1));
        assertThat(this.registry.getCurrentObservation()).isNotNull();
        observed.failed(failure);
        observed.stop(Outcome.RETRY_SCHEDULED);

        assertThat(this.registry.getCurrentObservation()).isNull();
        assertThat(this.registry)
                .hasSingleObservationThat()
                .hasNameEqualTo("dsched.execution")
                .hasBeenStarted()
                .hasBeenStopped()
                .hasError(failure)
                .hasLowCardinalityKeyValue("job", "settle")
                .hasLowCardinalityKeyValue("origin", "schedule")
                .hasLowCardinalityKeyValue("attempt", "first")
                .hasLowCardinalityKeyValue("outcome", "failed")
                .hasHighCardinalityKeyValue("execution.id", "42")
                .hasHighCardinalityKeyValue("idempotency.key", "settle@" + NOW.toEpochMilli())
                .hasHighCardinalityKeyValue("attempt.number", "1")
                .hasHighCardinalityKeyValue("node", "node-1");
    }

    @Test
    void aTimeoutAndALaterAttemptAreTaggedSo() {
        ExecutionObservations observations = new ExecutionObservations(this.registry, null, this.carriers, "node-1");

        Observed observed = observations.start(attempt(ExecutionOrigin.RETRY, 3));
        observed.failed(new JobTimeoutException("settle", Duration.ofSeconds(5)));
        observed.stop(Outcome.DEAD_LETTERED);
        observations.start(attempt(ExecutionOrigin.RECOVERY, 4)).stop(null);

        assertThat(this.registry)
                .hasAnObservation((observation) -> observation
                        .hasLowCardinalityKeyValue("origin", "retry")
                        .hasLowCardinalityKeyValue("attempt", "retry")
                        .hasLowCardinalityKeyValue("outcome", "dead_lettered"))
                .hasAnObservation((observation) -> observation
                        .hasLowCardinalityKeyValue("origin", "recovery")
                        .hasLowCardinalityKeyValue("outcome", "unknown")
                        .doesNotHaveError());
    }

    @Test
    void anAttemptOfASubmittedFireCarriesTheStoredTraceContext() {
        ExecutionObservations observations = new ExecutionObservations(this.registry, null, this.carriers, "node-1");

        observations.start(attempt(ExecutionOrigin.ONE_OFF, 1)).stop(Outcome.SUCCEEDED);
        observations.start(attempt(ExecutionOrigin.SCHEDULE, 1)).stop(Outcome.SUCCEEDED);
        observations.start(attempt(ExecutionOrigin.RETRY, 2)).stop(Outcome.SUCCEEDED);

        // a scheduled fire, its retries included, was never submitted: only the one-off is looked up
        assertThat(this.lookedUp).containsExactly("settle:order-42");
        assertThat(this.registry).hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts)
                .map((context) -> ((ExecutionObservationContext) context).getCarrier())
                .containsExactly(
                        java.util.Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"),
                        java.util.Map.of(),
                        java.util.Map.of()));
    }

    @Test
    void aTraceContextThatCannotBeReadLeavesTheAttemptObserved() {
        ExecutionObservations observations = new ExecutionObservations(
                this.registry,
                null,
                (key) -> {
                    throw new IllegalStateException("database down");
                },
                "node-1");

        observations.start(attempt(ExecutionOrigin.ONE_OFF, 1)).stop(Outcome.SUCCEEDED);

        assertThat(this.registry).hasSingleObservationThat().hasBeenStopped().doesNotHaveError();
    }

    @Test
    void withoutARegistryNothingIsObservedNorLookedUp() {
        ExecutionObservations observations =
                new ExecutionObservations(ObservationRegistry.NOOP, null, this.carriers, "node-1");

        assertThat(observations.start(attempt(ExecutionOrigin.ONE_OFF, 1))).isSameAs(Observed.NONE);
        assertThat(this.lookedUp).isEmpty();
    }

    @Test
    void aConventionOfTheApplicationReplacesTheDefaultOne() {
        ExecutionObservations observations = new ExecutionObservations(
                this.registry,
                new DefaultExecutionObservationConvention() {
                    @Override
                    public String getContextualName(ExecutionObservationContext context) {
                        return "run " + context.getExecution().jobName();
                    }
                },
                this.carriers,
                "node-1");

        observations.start(attempt(ExecutionOrigin.SCHEDULE, 1)).stop(Outcome.SUCCEEDED);

        assertThat(this.registry).hasSingleObservationThat().hasContextualNameEqualTo("run settle");
    }

    private static ExecutionRecord attempt(ExecutionOrigin origin, int number) {
        return ExecutionRecord.waiting(
                        "settle",
                        NOW,
                        number,
                        (origin == ExecutionOrigin.ONE_OFF)
                                ? "settle:order-42"
                                : ExecutionRecord.idempotencyKey("settle", NOW),
                        origin,
                        "node-1",
                        NOW,
                        NOW,
                        null,
                        null)
                .withId(42)
                .claimedBy("node-1", NOW);
    }
}
