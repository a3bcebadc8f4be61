package io.dsched.observation;

import io.micrometer.common.KeyValues;

/**
 * The default names and tags of the {@code dsched.submit} observation: the low-cardinality key
 * value {@code job} (the handler or job submitted, or {@code several} for a batch of several) and
 * the high-cardinality {@code count} (how many jobs were submitted).
 */
public class DefaultSubmitObservationConvention implements SubmitObservationConvention {

    /** The name of the observation. */
    public static final String NAME = "dsched.submit";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(SubmitObservationContext context) {
        return KeyValues.of("job", context.getJob());
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(SubmitObservationContext context) {
        return KeyValues.of("count", String.valueOf(context.getCount()));
    }
}
