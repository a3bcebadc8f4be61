package io.dsched.internal.observation;

import io.dsched.internal.jobs.SubmissionObserver;
import io.dsched.observation.DefaultSubmitObservationConvention;
import io.dsched.observation.SubmitObservationContext;
import io.dsched.observation.SubmitObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a short {@code dsched.submit} observation around the storing of jobs submitted inside
 * another observation (a web request, a message, a job), so that a tracer puts the propagation
 * fields of its span into the context's carrier, and hands them on to be stored with the jobs.
 * A submission outside any observation is not observed, and stores no trace context.
 */
public final class SubmitObservations implements SubmissionObserver {

    private static final Logger logger = LoggerFactory.getLogger(SubmitObservations.class);

    private static final DefaultSubmitObservationConvention DEFAULT_CONVENTION =
            new DefaultSubmitObservationConvention();

    private final ObservationRegistry registry;

    private final SubmitObservationConvention convention;

    /**
     * Creates the observer.
     * @param registry the registry to observe in; {@link ObservationRegistry#NOOP} observes nothing
     * @param convention the convention that replaces the default one, or {@code null}
     */
    public SubmitObservations(ObservationRegistry registry, SubmitObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <T> T observe(String job, int count, Function<String, T> store) {
        if (this.registry.isNoop() || this.registry.getCurrentObservation() == null) {
            return store.apply(null);
        }
        SubmitObservationContext context = new SubmitObservationContext(job, count);
        Observation observation;
        String carrier;
        try {
            observation = Observation.createNotStarted(
                            this.convention, DEFAULT_CONVENTION, () -> context, this.registry)
                    .start();
            carrier = TraceCarriers.encode(context.getCarrier());
        } catch (RuntimeException ex) {
            logger.warn("Not observing the submission of '{}': {}", job, ex.toString());
            return store.apply(null);
        }
        try (Observation.Scope scope = observation.openScope()) {
            return store.apply(carrier);
        } catch (RuntimeException | Error ex) {
            quietly(() -> observation.error(ex));
            throw ex;
        } finally {
            quietly(observation::stop);
        }
    }

    // a tracer that fails must not fail the submission, nor hide why it failed
    private static void quietly(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException ex) {
            logger.warn("Could not record the observation of a submission: {}", ex.toString());
        }
    }
}
