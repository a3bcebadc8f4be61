package io.dsched.internal.history;

import java.time.Duration;

/**
 * How long each kind of row is kept.
 *
 * @param history finished attempts, closed dead letters, captured logs and trace contexts,
 *     requests to stop attempts, and the rows of nodes gone
 * @param waiting an attempt waiting past its due time for a node to run it, before it is cancelled
 * @param audit the audit log's entries
 * @param deployments the record of a deployment that is not the newest, after its last node
 *     started, and of job definitions no deployment kept can run
 * @param openDeadLetters open dead letters after their last failure, or {@code null} to keep them
 *     until they are replayed or discarded
 * @param locks rows of the lock table free for this long, or {@code null} to keep them (the
 *     jobs' locks are an application's own provider's, which may not create a missing row again)
 */
public record Retention(
        Duration history,
        Duration waiting,
        Duration audit,
        Duration deployments,
        Duration openDeadLetters,
        Duration locks) {

    /**
     * Keeps open dead letters until someone acts, and lock rows for the history's retention.
     * @param history finished attempts and the rest of the history
     * @param waiting an attempt waiting past its due time, before it is cancelled
     * @param audit the audit log's entries
     * @param deployments the record of deployments and job definitions
     */
    public Retention(Duration history, Duration waiting, Duration audit, Duration deployments) {
        this(history, waiting, audit, deployments, null, history);
    }
}
