package io.dsched.internal.history;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The purges of what belongs to attempts: attempts that waited too long are cancelled, finished
 * ones deleted with their captured logs, then the logs, trace contexts and requests to stop that
 * have no attempt left, and callers' idempotency keys once their window closed.
 */
final class AttemptPurges {

    private static final String FINISHED =
            "'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'SKIPPED', 'DEAD_LETTERED', 'CANCELLED'";

    private static final String WAITING = "'SCHEDULED', 'RETRY_SCHEDULED'";

    private static final String EXECUTION_LOGS = "DELETE FROM dsched_execution_log WHERE execution_id IN (:ids)";

    private final Batches batches;

    AttemptPurges(Batches batches) {
        this.batches = batches;
    }

    int cancelStale(Object cutoff, Supplier<Object> now) {
        String select = "SELECT id FROM dsched_execution WHERE status IN (" + WAITING + ") AND due_at < ?"
                + " ORDER BY id LIMIT " + this.batches.size();
        // the state again: a node may have claimed one meanwhile
        String cancel = "UPDATE dsched_execution SET status = 'CANCELLED', finished_at = :now, status_reason = :reason"
                + " WHERE id IN (:ids) AND status IN (" + WAITING + ")";
        return this.batches.run(select, Long.class, cutoff, (ids) -> this.batches
                .named()
                .update(cancel, Map.of("ids", ids, "now", now.get(), "reason", Housekeeping.STALE)));
    }

    int deleteFinished(Object cutoff) {
        // an attempt that never ran, cancelled or skipped, has started_at when it was created
        return this.batches.deleteById(
                "dsched_execution", "status IN (" + FINISHED + ") AND started_at < ?", cutoff, EXECUTION_LOGS);
    }

    int deleteOrphanLogs(Object cutoff) {
        // the logs of attempts deleted otherwise than here (the history is a public table)
        return this.batches.deleteKeys(
                "SELECT l.execution_id FROM dsched_execution_log l WHERE l.created_at < ? AND NOT EXISTS"
                        + " (SELECT 1 FROM dsched_execution e WHERE e.id = l.execution_id)"
                        + " ORDER BY l.execution_id LIMIT " + this.batches.size(),
                Long.class,
                cutoff,
                "DELETE FROM dsched_execution_log WHERE execution_id IN (:keys) AND created_at < :cutoff");
    }

    int deleteTraces(Object cutoff) {
        // only of fires with no attempt left: one still waiting or running keeps its trace however old
        String select = "SELECT t.idempotency_key FROM dsched_execution_trace t WHERE t.created_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM dsched_execution e WHERE e.idempotency_key = t.idempotency_key)"
                + " LIMIT " + this.batches.size();
        // the cutoff again: a fire submitted meanwhile under a key just freed keeps its new row
        String delete = "DELETE FROM dsched_execution_trace WHERE idempotency_key IN (:keys) AND created_at < :cutoff";
        return this.batches.deleteKeys(select, String.class, cutoff, delete);
    }

    int deleteExpiredKeys(Object now) {
        String select =
                "SELECT idempotency_key FROM dsched_unique_key WHERE expires_at < ? LIMIT " + this.batches.size();
        String delete = "DELETE FROM dsched_unique_key WHERE idempotency_key IN (:keys) AND expires_at < :now";
        return this.batches.run(select, String.class, now, (keys) -> this.batches
                .named()
                .update(delete, Map.of("keys", keys, "now", now)));
    }

    int deleteCancelRequests(Object cutoff) {
        // a request is kept while its attempt runs, however old: the running node still has to stop it
        String select = "SELECT r.execution_id FROM dsched_cancel_request r WHERE r.requested_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM dsched_execution e WHERE e.id = r.execution_id"
                + " AND e.status = 'RUNNING') LIMIT " + this.batches.size();
        String delete = "DELETE FROM dsched_cancel_request WHERE execution_id IN (:ids)";
        return this.batches.run(
                select, Long.class, cutoff, (ids) -> this.batches.named().update(delete, Map.of("ids", ids)));
    }
}
