package io.dsched.internal.actuate;

import io.dsched.internal.actuate.EndpointReads.ListQuery;
import io.dsched.internal.actuate.EndpointWrites.WriteInput;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.DeadLetterCommands;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobCommands;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.LimitCommands;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * The {@code dsched} endpoint, under {@code /actuator/dsched}: the cluster, its jobs, their
 * executions, dead letters and the audit log to read; pause, resume, trigger, reschedule, change
 * parameters, replay, discard and cancel to write. The README documents every path and shape;
 * {@link DschedEndpointWebExtension} maps these operations to HTTP.
 *
 * <p>Every operation checks the caller's role and every write is recorded in {@code dsched_audit}
 * (see {@link EndpointGuard}); one that is refused or fails throws an exception that says why: bad
 * input (naming the field), a missing role, an unknown thing or a conflicting change.
 *
 * <p>Payloads, parameters, captured log lines and stack traces are shown or masked as
 * {@link ValueMasking} decides for the caller; keys that look secret are masked in every answer and
 * in the audit log.
 */
@WebEndpoint(id = DschedEndpoint.ID)
public class DschedEndpoint {

    /** The endpoint's id. */
    public static final String ID = "dsched";

    private final EndpointReads reads;

    private final EndpointWrites writes;

    /**
     * Creates the endpoint.
     * @param cluster the cluster's views
     * @param jobs the jobs' views
     * @param executions the attempts' views
     * @param commands what it changes of jobs and attempts
     * @param deadLetterCommands what it changes of dead letters
     * @param deadLetters the dead letters, to read
     * @param audit the audit log, to read
     * @param limits the handlers' cluster-wide limits, to read and change
     * @param guard the roles, masking and audit of its operations
     */
    public DschedEndpoint(
            ClusterViews cluster,
            JobViews jobs,
            ExecutionViews executions,
            JobCommands commands,
            DeadLetterCommands deadLetterCommands,
            DeadLetters deadLetters,
            AuditLog audit,
            LimitCommands limits,
            EndpointGuard guard) {
        this.reads = new EndpointReads(cluster, jobs, executions, deadLetters, audit, limits, guard);
        this.writes = new EndpointWrites(commands, deadLetterCommands, limits, guard);
    }

    /**
     * Returns a filter that leaves this endpoint's write operations out unless they are exposed.
     * @param roles who may do what
     * @return the filter, for Actuator's web endpoint discovery
     */
    public static OperationFilter<WebOperation> writeFilter(EndpointRoles roles) {
        return (operation, endpointId, defaultAccess) -> !EndpointId.of(ID).equals(endpointId)
                || operation.getType() == OperationType.READ
                || roles.writesExposed();
    }

    /**
     * {@code GET /actuator/dsched}: the cluster at a glance.
     * @param security the caller
     * @param window the window the counts cover, such as {@code 1h} (default)
     * @return the overview
     */
    @ReadOperation
    public Object overview(SecurityContext security, @Nullable String window) {
        return this.reads.overview(security, window);
    }

    /**
     * {@code GET /actuator/dsched/{jobs|executions|dead-letters|audit|limits}}: a list; and
     * {@code GET /actuator/dsched/timeline} (the last hour, minute by minute),
     * {@code GET /actuator/dsched/schedule-preview?cron=&zone=} (the next five fire times of a cron)
     * and {@code GET /actuator/dsched/me} (who asks and what they may do).
     * @param security the caller
     * @param collection which list
     * @param window for jobs: the window their statistics cover (default 24h); for the timeline: the
     *     window it covers (default 1h, at most 24h)
     * @param job for executions and dead letters: only this job's
     * @param status for executions and dead letters: only those in this state
     * @param from for dead letters: only those that last failed at or after this instant
     * @param to for dead letters: only those that last failed before this instant
     * @param actor for the audit log: only this actor's entries
     * @param cron for the schedule preview: the cron expression
     * @param zone for the schedule preview: its zone, or the node's default
     * @param page the page, from 0
     * @param size the page size, at most 200 (default 20)
     * @return the list
     */
    @ReadOperation
    public Object list(
            SecurityContext security,
            @Selector String collection,
            @Nullable String window,
            @Nullable String job,
            @Nullable String status,
            @Nullable String from,
            @Nullable String to,
            @Nullable String actor,
            @Nullable String cron,
            @Nullable String zone,
            @Nullable Integer page,
            @Nullable Integer size) {
        return this.reads.list(
                security, collection, new ListQuery(window, job, status, from, to, actor, cron, zone, page, size));
    }

    /**
     * {@code GET /actuator/dsched/{jobs|executions|dead-letters}/{id}}: one job with a page of its
     * executions, one execution with its failure and log, or one dead letter.
     * @param security the caller
     * @param collection which list
     * @param id the job's name or the item's id
     * @param window for a job: the window its statistics cover (default 24h)
     * @param status for a job: only its executions in this state
     * @param page for a job: the page of its executions, from 0
     * @param size for a job: the page size, at most 200 (default 20)
     * @param fire for a sharded or broadcast job: one fire's time, in epoch milliseconds, whose shards
     *     to show instead
     * @return the item
     */
    @ReadOperation
    public Object one(
            SecurityContext security,
            @Selector String collection,
            @Selector String id,
            @Nullable String window,
            @Nullable String status,
            @Nullable Integer page,
            @Nullable Integer size,
            @Nullable String fire) {
        return this.reads.one(security, collection, id, window, status, page, size, fire);
    }

    /**
     * {@code POST /actuator/dsched/jobs/{name}/{pause|resume|trigger|schedule|params|shards}} and
     * {@code POST /actuator/dsched/dead-letters/{id}/{replay|discard}} and
     * {@code POST /actuator/dsched/executions/{id}/cancel} and
     * {@code POST /actuator/dsched/limits/{handler}/{set|reset}}.
     * @param security the caller
     * @param collection {@code jobs}, {@code dead-letters}, {@code executions} or {@code limits}
     * @param id the job's name, the dead letter's id, the execution's id or the handler's name
     * @param action what to do
     * @param cron for schedule: the new cron expression
     * @param zone for schedule: the cron's zone
     * @param fixedRate for schedule: the new fixed rate, instead of a cron
     * @param params for params, and optionally trigger: the parameters, as JSON text
     * @param maxConcurrent for a handler's limits: the most attempts running at once, 0 for none
     * @param rate for a handler's limits: the rate, such as {@code 50/1s}, or {@code none}
     * @param quota for a handler's limits: the quota, such as {@code 10000/1d}, or {@code none}
     * @param keyRate for a handler's limits: the rate of each key, such as {@code 5/1s}, or {@code none}
     * @param shards for a sharded job's shards: the shards of each fire, or {@code declared}
     * @param shardParams for a sharded job's shards: their parameters, as a JSON object by index
     * @param reason why; required to discard
     * @return what changed
     */
    @WriteOperation
    public Object act(
            SecurityContext security,
            @Selector String collection,
            @Selector String id,
            @Selector String action,
            @Nullable String cron,
            @Nullable String zone,
            @Nullable String fixedRate,
            @Nullable String params,
            @Nullable String maxConcurrent,
            @Nullable String rate,
            @Nullable String quota,
            @Nullable String keyRate,
            @Nullable String shards,
            @Nullable String shardParams,
            @Nullable String reason) {
        return this.writes.act(
                security,
                collection,
                id,
                action,
                new WriteInput(
                        cron,
                        zone,
                        fixedRate,
                        params,
                        maxConcurrent,
                        rate,
                        quota,
                        keyRate,
                        shards,
                        shardParams,
                        reason));
    }

    /**
     * {@code POST /actuator/dsched/dead-letters/{replay|discard}} with {@code ids}: acts on several
     * dead letters at once; if one of them cannot be acted on, none is.
     * @param security the caller
     * @param collection {@code dead-letters}
     * @param action {@code replay} or {@code discard}
     * @param ids the dead letters' ids, separated by commas, at most 500
     * @param reason why; required to discard
     * @return what changed
     */
    @WriteOperation
    public Object actOnMany(
            SecurityContext security,
            @Selector String collection,
            @Selector String action,
            @Nullable String ids,
            @Nullable String reason) {
        return this.writes.actOnMany(security, collection, action, ids, reason);
    }
}
