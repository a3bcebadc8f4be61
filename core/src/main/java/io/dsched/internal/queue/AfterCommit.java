package io.dsched.internal.queue;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Holds back the notices of a submission made in the caller's transaction until it has committed,
 * and gives them all at once, for every job the transaction submitted; none if it rolls back.
 * Outside a transaction a notice goes on at once. A transaction suspended for another (a {@code
 * REQUIRES_NEW} block) keeps its own: the other's notices go when the other commits.
 */
public final class AfterCommit implements DueNotice {

    private final DueNotice notice;

    /**
     * Creates the notices.
     * @param notice what gives the notices, once there is nothing to wait for
     */
    public AfterCommit(DueNotice notice) {
        this.notice = notice;
    }

    @Override
    public void due(Collection<String> jobNames) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || !TransactionSynchronizationManager.isSynchronizationActive()) {
            this.notice.due(jobNames);
            return;
        }
        // the synchronizations are the current transaction's: a suspended one's are put aside
        for (TransactionSynchronization synchronization : TransactionSynchronizationManager.getSynchronizations()) {
            if (synchronization instanceof Pending pending && pending.owner() == this) {
                pending.jobNames.addAll(jobNames);
                return;
            }
        }
        Pending pending = new Pending();
        pending.jobNames.addAll(jobNames);
        TransactionSynchronizationManager.registerSynchronization(pending);
    }

    /** The jobs a transaction submitted. */
    private final class Pending implements TransactionSynchronization {

        private final Set<String> jobNames = new TreeSet<>();

        AfterCommit owner() {
            return AfterCommit.this;
        }

        @Override
        public void afterCompletion(int status) {
            if (status == STATUS_COMMITTED) {
                AfterCommit.this.notice.due(this.jobNames);
            }
        }
    }
}
