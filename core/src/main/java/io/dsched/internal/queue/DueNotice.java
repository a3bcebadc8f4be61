package io.dsched.internal.queue;

import java.util.Collection;

/**
 * Tells the nodes that attempts of some jobs fell due now, so that their queues claim them at once
 * rather than at their next poll. Called after the attempts are stored, in the caller's transaction
 * where it has one: a node hears of them only once they are committed.
 */
@FunctionalInterface
public interface DueNotice {

    /**
     * Announces attempts that fell due now.
     * @param jobNames the jobs or handlers whose attempts they are
     */
    void due(Collection<String> jobNames);
}
