package io.dsched.internal.actuate;

import io.dsched.internal.actuate.EndpointRoles.Refusal;
import io.dsched.internal.management.ManagementException;
import io.dsched.jobs.UnknownJobException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why the {@code dsched} endpoint did not do what it was asked: a status (400 for bad input, 401 or
 * 403 for a missing role, 404 for an unknown thing, 409 for a conflicting change, 500 for a failure
 * of its own) and a message that says why, never a stack trace.
 */
final class EndpointFailure extends RuntimeException {

    private static final Logger logger = LoggerFactory.getLogger(DschedEndpoint.class);

    private final int status;

    private final @Nullable String field;

    private EndpointFailure(int status, String message, @Nullable String field) {
        super(message, null, false, false);
        this.status = status;
        this.field = field;
    }

    static EndpointFailure refused(Refusal refusal) {
        return new EndpointFailure(refusal.status(), refusal.reason(), null);
    }

    /** What a failure of an operation answers; one that management did not foresee is logged here, once. */
    static EndpointFailure of(RuntimeException ex, String nodeId) {
        if (ex instanceof EndpointFailure failure) {
            return failure;
        }
        if (ex instanceof ManagementException managed) {
            return new EndpointFailure(managed.status(), managed.getMessage(), managed.field());
        }
        if (ex instanceof UnknownJobException) {
            return new EndpointFailure(404, ex.getMessage(), null);
        }
        logger.error("The dsched endpoint failed", ex);
        return new EndpointFailure(500, "The request failed on node " + nodeId + "; its log has the cause", null);
    }

    int status() {
        return this.status;
    }

    @Nullable
    String field() {
        return this.field;
    }
}
