package io.dsched.internal.jobs;

import io.dsched.execution.Cancellation;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.util.List;

/** Cancels attempts, by id or by the key of their fire, on whichever node they are. */
final class Cancels {

    private final ExecutionStore store;

    private final Clock clock;

    Cancels(ExecutionStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    Cancellation cancel(long executionId, String requestedBy) {
        return this.store.cancels().cancel(executionId, requestedBy, this.clock.instant());
    }

    /** The newest attempt under the fire's key. */
    Cancellation cancelByKey(String idempotencyKey, String requestedBy) {
        List<ExecutionRecord> attempts = this.store.repository().findByIdempotencyKey(idempotencyKey);
        if (attempts.isEmpty()) {
            return new Cancellation(null, null, Cancellation.Result.NOT_FOUND);
        }
        return cancel(attempts.get(attempts.size() - 1).id(), requestedBy);
    }
}
