package io.dsched.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the {@code dsched.execution} observation of each attempt. Declare a bean of this
 * type to replace {@link DefaultExecutionObservationConvention}, or extend that class to add to it.
 */
public interface ExecutionObservationConvention extends ObservationConvention<ExecutionObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof ExecutionObservationContext;
    }
}
