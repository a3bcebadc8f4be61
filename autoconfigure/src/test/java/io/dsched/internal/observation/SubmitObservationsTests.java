package io.dsched.internal.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.transport.SenderContext;
import org.junit.jupiter.api.Test;

/**
 * The {@code dsched.submit} observation: made only inside another observation, and handing on what
 * a tracer put into its carrier.
 */
class SubmitObservationsTests {

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    SubmitObservationsTests() {
        // what a propagating tracer does when a sender observation starts
        this.registry.observationConfig().observationHandler(new ObservationHandler<SenderContext<Object>>() {
            @Override
            public void onStart(SenderContext<Object> context) {
                context.getSetter().set(context.getCarrier(), "traceparent", "00-trace-span-01");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof SenderContext;
            }
        });
    }

    @Test
    void aSubmissionInsideAnObservationIsObservedAndStoresTheTracersFields() {
        SubmitObservations observations = new SubmitObservations(this.registry, null);
        Observation request = Observation.start("http.server.requests", this.registry);

        String stored;
        try (Observation.Scope scope = request.openScope()) {
            stored = observations.observe("remind", 3, (carrier) -> carrier);
        } finally {
            request.stop();
        }

        assertThat(stored).isEqualTo("{\"traceparent\":\"00-trace-span-01\"}");
        assertThat(this.registry)
                .hasObservationWithNameEqualTo("dsched.submit")
                .that()
                .hasBeenStopped()
                .hasParentObservationEqualTo(request)
                .hasLowCardinalityKeyValue("job", "remind")
                .hasHighCardinalityKeyValue("count", "3");
    }

    @Test
    void aSubmissionOutsideAnyObservationIsNotObservedAndStoresNoTraceContext() {
        SubmitObservations observations = new SubmitObservations(this.registry, null);

        String stored = observations.observe("remind", 1, (carrier) -> carrier);

        assertThat(stored).isNull();
        assertThat(this.registry).doesNotHaveAnyObservation();
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        SubmitObservations observations = new SubmitObservations(ObservationRegistry.NOOP, null);

        String stored = observations.observe("remind", 1, (carrier) -> carrier);

        assertThat(stored).isNull();
    }

    @Test
    void aSubmissionThatFailsIsStoppedWithItsError() {
        SubmitObservations observations = new SubmitObservations(this.registry, null);
        IllegalStateException failure = new IllegalStateException("database down");
        Observation request = Observation.start("http.server.requests", this.registry);

        try (Observation.Scope scope = request.openScope()) {
            assertThatIllegalStateException()
                    .isThrownBy(() -> observations.observe("remind", 1, (carrier) -> {
                        throw failure;
                    }));
        } finally {
            request.stop();
        }

        assertThat(this.registry)
                .hasObservationWithNameEqualTo("dsched.submit")
                .that()
                .hasBeenStopped()
                .hasError(failure);
    }
}
