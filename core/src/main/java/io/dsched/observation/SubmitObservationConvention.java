package io.dsched.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code dsched.submit} observation of each submission. Declare a bean of this
 * type to replace {@link DefaultSubmitObservationConvention}.
 */
public interface SubmitObservationConvention extends ObservationConvention<SubmitObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof SubmitObservationContext;
    }
}
