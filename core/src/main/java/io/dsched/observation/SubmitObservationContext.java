package io.dsched.observation;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.HashMap;
import java.util.Map;

/**
 * What the {@code dsched.submit} observation of one submission knows: the job or handler and how
 * many jobs were submitted. A tracer puts the propagation fields of the submission's span into its
 * carrier; dsched stores them with the jobs.
 */
public class SubmitObservationContext extends SenderContext<Map<String, String>> {

    private final String job;

    private final int count;

    /**
     * Creates the context of a submission, with an empty carrier.
     * @param job the handler or job submitted, or {@code several} for a batch of several
     * @param count how many jobs are submitted
     */
    public SubmitObservationContext(String job, int count) {
        super((carrier, key, value) -> carrier.put(key, value), Kind.PRODUCER);
        this.job = job;
        this.count = count;
        setCarrier(new HashMap<>());
    }

    /**
     * Returns the handler or job submitted.
     * @return its name, or {@code several} for a batch of several
     */
    public String getJob() {
        return this.job;
    }

    /**
     * Returns how many jobs are submitted.
     * @return the count
     */
    public int getCount() {
        return this.count;
    }
}
