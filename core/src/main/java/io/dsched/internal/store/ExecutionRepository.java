package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.springframework.data.jdbc.repository.query.Modifying;
import org.springframework.data.jdbc.repository.query.Query;
import org.springframework.data.repository.CrudRepository;

/**
 * Spring Data JDBC repository of {@code dsched_execution}.
 */
public interface ExecutionRepository extends CrudRepository<ExecutionRecord, Long> {

    /**
     * Writes the outcome of an attempt, provided it is still running on the given node: a node
     * that lost its claim cannot overwrite what another wrote.
     * @return the number of rows changed, 1 or 0
     */
    @Modifying
    @Query("""
            UPDATE dsched_execution
               SET status = :status, started_at = :startedAt, finished_at = :finishedAt,
                   error_class = :errorClass, error_message = :errorMessage,
                   status_reason = COALESCE(:reason, status_reason)
             WHERE id = :id AND status = 'RUNNING' AND node_id = :nodeId
            """)
    int finish(
            long id,
            String nodeId,
            String status,
            Instant startedAt,
            Instant finishedAt,
            String errorClass,
            String errorMessage,
            String reason);

    /**
     * Finds the attempts of a job, newest fire first.
     * @param jobName the job
     * @return its executions
     */
    @Query("SELECT * FROM dsched_execution WHERE job_name = :jobName ORDER BY scheduled_at DESC, attempt DESC")
    List<ExecutionRecord> findByJobName(String jobName);

    /**
     * Finds the newest attempts of a job, the later attempts of a fire first: a fire's attempts
     * are inserted one after another, so the later has the higher id. By id and not by attempt,
     * so that MySQL and MariaDB read the job's index, which holds the id, newest first and stop
     * at the limit, where an order by attempt sorted every attempt of the job (W8 in the
     * benchmarks).
     * @param jobName the job
     * @param limit how many at most
     * @return its latest executions, newest fire first
     */
    @Query("""
            SELECT * FROM dsched_execution WHERE job_name = :jobName
             ORDER BY scheduled_at DESC, id DESC LIMIT :limit
            """)
    List<ExecutionRecord> findLatestByJobName(String jobName, int limit);

    /**
     * Finds the attempts of a job in a window of scheduled times, oldest first.
     * @param jobName the job
     * @param from first scheduled time, inclusive
     * @param to last scheduled time, exclusive
     * @return its executions
     */
    @Query("""
            SELECT * FROM dsched_execution
             WHERE job_name = :jobName AND scheduled_at >= :from AND scheduled_at < :to
             ORDER BY scheduled_at, attempt
            """)
    List<ExecutionRecord> findByJobNameBetween(String jobName, Instant from, Instant to);

    /**
     * Counts the attempts of a job in a state.
     * @param jobName the job
     * @param status the state
     * @return how many
     */
    @Query("SELECT COUNT(*) FROM dsched_execution WHERE job_name = :jobName AND status = :status")
    long countByJobNameAndStatus(String jobName, ExecutionStatus status);

    /**
     * Counts the one-off jobs that wait for their first attempt.
     * @return how many
     */
    @Query("SELECT COUNT(*) FROM dsched_execution WHERE status = 'SCHEDULED' AND origin = 'ONE_OFF'")
    long countPendingOneOffs();

    /**
     * Claims waiting attempts this transaction has locked with {@code SELECT ... FOR UPDATE SKIP
     * LOCKED}.
     * @return the number of rows changed
     */
    @Modifying
    @Query("""
            UPDATE dsched_execution SET status = 'RUNNING', node_id = :nodeId, started_at = :now
             WHERE id IN (:ids) AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')
            """)
    int claimLocked(Collection<Long> ids, String nodeId, Instant now);

    /**
     * Claims a waiting attempt for a node, provided no other node claimed it first.
     * @return the number of rows changed, 1 or 0
     */
    @Modifying
    @Query("""
            UPDATE dsched_execution SET status = 'RUNNING', node_id = :nodeId, started_at = :now
             WHERE id = :id AND status = :waiting
            """)
    int claimWaiting(long id, String waiting, String nodeId, Instant now);

    /**
     * Puts a claimed attempt back to wait, as when its job's guard is held by another run.
     * @return the number of rows changed, 1 or 0
     */
    @Modifying
    @Query("""
            UPDATE dsched_execution SET status = :waiting, due_at = :dueAt, status_reason = :reason
             WHERE id = :id AND status = 'RUNNING' AND node_id = :nodeId
            """)
    int defer(long id, String nodeId, String waiting, Instant dueAt, String reason);

    /**
     * Cancels the attempts of a job that wait to run, as when the job is deleted.
     * @return the number of attempts cancelled
     */
    @Modifying
    @Query("""
            UPDATE dsched_execution SET status = 'CANCELLED', finished_at = :now, status_reason = :reason
             WHERE job_name = :jobName AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')
            """)
    int cancelWaiting(String jobName, Instant now, String reason);

    /**
     * Finds running attempts whose node is none of the given live ones.
     * @param liveNodes the nodes known to be alive
     * @return the orphaned attempts
     */
    @Query("SELECT * FROM dsched_execution WHERE status = 'RUNNING' AND node_id NOT IN (:liveNodes)")
    List<ExecutionRecord> findRunningNotOn(Collection<String> liveNodes);

    /**
     * Finds running attempts of a node.
     * @param nodeId the node
     * @return its running attempts
     */
    @Query("SELECT * FROM dsched_execution WHERE status = 'RUNNING' AND node_id = :nodeId")
    List<ExecutionRecord> findRunningOn(String nodeId);

    /**
     * Finds every attempt at a fire.
     * @param idempotencyKey the fire's key
     * @return its attempts, first first
     */
    @Query("SELECT * FROM dsched_execution WHERE idempotency_key = :idempotencyKey ORDER BY attempt")
    List<ExecutionRecord> findByIdempotencyKey(String idempotencyKey);
}
