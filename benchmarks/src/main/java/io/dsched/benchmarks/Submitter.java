package io.dsched.benchmarks;

/**
 * Submits one-off jobs due now, one call a job, while the nodes of a run are up: what W5 ({@link
 * Workload#W5_SUBMIT_LATENCY}) times. A submitter is used by one thread at a time.
 */
public interface Submitter extends AutoCloseable {

    /**
     * Submits one one-off job, due now, through the contestant's public API; its body runs {@code
     * Probe.oneOff(key)}. Returns once the contestant has stored it.
     * @param key the job's key, unique in the run
     * @throws Exception if the contestant could not store it
     */
    void submit(String key) throws Exception;

    /**
     * Releases what the submitter holds. A submitter of a node holds nothing of its own (the node
     * stops when the worker stops it); one of a client closes the client.
     * @throws Exception if it cannot
     */
    @Override
    default void close() throws Exception {}

    /**
     * Returns a submitter that submits as another does and, when closed, closes what it stands on
     * (a client's context or pool).
     * @param submitter how it submits
     * @param resources what it closes
     * @return the submitter
     */
    static Submitter closing(Submitter submitter, AutoCloseable resources) {
        return new Submitter() {

            @Override
            public void submit(String key) throws Exception {
                submitter.submit(key);
            }

            @Override
            public void close() throws Exception {
                resources.close();
            }
        };
    }
}
