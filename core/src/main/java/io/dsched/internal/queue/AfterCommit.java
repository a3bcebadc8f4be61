package io.dsched.internal.queue;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Holds back the notices of a submission made in the caller's transaction until it has committed,
 * and gives them all at once, for every job the transaction submitted; none if it rolls back.
 * Outside a transaction a notice goes on at once.
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
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            this.notice.due(jobNames);
            return;
        }
        Pending pending = (Pending) TransactionSynchronizationManager.getResource(this);
        if (pending == null) {
            pending = new Pending();
            TransactionSynchronizationManager.bindResource(this, pending);
            TransactionSynchronizationManager.registerSynchronization(pending);
        }
        pending.jobNames.addAll(jobNames);
    }

    /** The jobs a transaction submitted. */
    private final class Pending implements TransactionSynchronization {

        private final Set<String> jobNames = new TreeSet<>();

        @Override
        public void afterCompletion(int status) {
            TransactionSynchronizationManager.unbindResourceIfPossible(AfterCommit.this);
            if (status == STATUS_COMMITTED) {
                AfterCommit.this.notice.due(this.jobNames);
            }
        }
    }
}
