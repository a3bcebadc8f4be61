package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;

/**
 * An attempt's outcome could not be written because the attempt is no longer running on the
 * node that claimed it: another node took it over.
 */
public final class LostClaimException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    LostClaimException(ExecutionRecord claim, ExecutionStatus status) {
        super("Execution " + claim.id() + " of '" + claim.jobName() + "' is no longer RUNNING on node " + claim.nodeId()
                + "; not recording " + status);
    }
}
