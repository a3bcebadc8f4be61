package io.dsched.internal.actuate;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.audit.AuditEntry;
import io.dsched.internal.logs.ExecutionLog;
import io.dsched.internal.management.views.ExecutionDetail;
import io.dsched.internal.management.views.Job;
import io.dsched.internal.management.views.JobDetail;
import io.dsched.internal.management.views.Limit;
import io.dsched.internal.management.views.PageView;
import io.dsched.internal.management.views.Shards;
import io.dsched.internal.store.DeadLetter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The answers of the endpoint's reads with their values as one caller may see them: every view
 * that holds a payload, parameters, log lines or a stack trace, and where in it they are. Each
 * such answer says whether they are masked ({@code valuesMasked}); a list of jobs, which has no
 * object of its own, says it on each job.
 */
final class MaskedViews {

    private MaskedViews() {}

    /** The shards in force, their parameters shown as values are. */
    private static Shards shards(Shards shards, ShownValues values) {
        if (shards == null) {
            return null;
        }
        return new Shards(
                shards.count(),
                values.params(shards.params()),
                shards.declared(),
                values.params(shards.declaredParams()),
                shards.setBy(),
                shards.setAt());
    }

    static Object view(Object answer, ShownValues values) {
        if (answer instanceof List<?> items) {
            return items.stream()
                    .map((item) -> flagged(copy(item, values), values))
                    .toList();
        }
        if (answer instanceof PageView<?> page) {
            return flagged(page(page, values), values);
        }
        if (answer instanceof JobDetail detail) {
            return flagged(
                    new JobDetail(
                            copy(detail.job(), values),
                            page(detail.executions(), values),
                            detail.fires(),
                            shards(detail.shards(), values)),
                    values);
        }
        if (answer instanceof ExecutionDetail detail) {
            return flagged(
                    new ExecutionDetail(
                            copy(detail.execution(), values),
                            detail.zone(),
                            detail.attempts().stream()
                                    .map((attempt) -> copy(attempt, values))
                                    .toList(),
                            copy(detail.deadLetter(), values),
                            detail.deadLetters().stream()
                                    .map((letter) -> copy(letter, values))
                                    .toList(),
                            copy(detail.log(), values),
                            detail.waitingFor()),
                    values);
        }
        if (answer instanceof DeadLetter) {
            return flagged(copy(answer, values), values);
        }
        return answer;
    }

    private static <T> PageView<T> page(PageView<T> page, ShownValues values) {
        List<T> content =
                page.content().stream().map((item) -> copy(item, values)).toList();
        return new PageView<>(content, page.page(), page.size(), page.total(), page.totalExact());
    }

    @SuppressWarnings("unchecked")
    private static <T> @Nullable T copy(@Nullable T item, ShownValues values) {
        Object copy = item;
        if (item instanceof Job job) {
            copy = new Job(
                    job.name(),
                    job.kind(),
                    job.handler(),
                    job.schedule(),
                    job.cron(),
                    job.zone(),
                    job.fixedRate(),
                    job.fixedDelay(),
                    values.json(job.params()),
                    job.nextFireAt(),
                    job.paused(),
                    job.lastRun(),
                    job.stats(),
                    job.openDeadLetters());
        } else if (item instanceof ExecutionRecord run) {
            copy = new ExecutionRecord(
                    run.id(),
                    run.jobName(),
                    run.scheduledAt(),
                    run.attempt(),
                    run.idempotencyKey(),
                    run.status(),
                    run.nodeId(),
                    run.startedAt(),
                    run.finishedAt(),
                    run.errorClass(),
                    values.text(run.errorMessage()),
                    run.statusReason(),
                    run.origin(),
                    run.dueAt(),
                    values.json(run.payload()),
                    run.priority(),
                    values.text(run.limitKey()));
        } else if (item instanceof Limit limit) {
            // a key is a value of a payload
            copy = limit.withKeys(limit.keys().stream()
                    .map((key) -> new Limit.KeyUse(values.text(key.key()), key.running(), key.waiting(), key.full()))
                    .toList());
        } else if (item instanceof DeadLetter letter) {
            copy = new DeadLetter(
                    letter.id(),
                    letter.jobName(),
                    letter.scheduledAt(),
                    letter.idempotencyKey(),
                    letter.attempts(),
                    letter.executionId(),
                    letter.errorClass(),
                    values.text(letter.errorMessage()),
                    values.text(letter.stackTrace()),
                    values.json(letter.payload()),
                    letter.firstFailedAt(),
                    letter.lastFailedAt(),
                    letter.nodeId(),
                    letter.status(),
                    letter.actedBy(),
                    letter.actedReason(),
                    letter.actedAt());
        } else if (item instanceof ExecutionLog log) {
            copy = new ExecutionLog(
                    log.executionId(),
                    log.jobName(),
                    values.lines(log.lines()),
                    values.text(log.stackTrace()),
                    log.truncated(),
                    log.createdAt());
        } else if (item instanceof AuditEntry entry) {
            copy = new AuditEntry(
                    entry.id(),
                    entry.actedAt(),
                    entry.actor(),
                    entry.action(),
                    entry.target(),
                    values.audit(entry.beforeValue()),
                    values.audit(entry.afterValue()),
                    entry.reason(),
                    entry.remoteAddress(),
                    entry.result(),
                    entry.detail(),
                    entry.nodeId());
        }
        return (T) copy;
    }

    private static Flagged flagged(@Nullable Object body, ShownValues values) {
        return new Flagged(body, values.masked());
    }

    /**
     * An answer with whether its values are masked.
     *
     * @param body the answer, whose members are written as if they were this one's
     * @param valuesMasked whether its payloads, parameters, log lines and stack traces are masked
     */
    record Flagged(@JsonUnwrapped @Nullable Object body, boolean valuesMasked) {}
}
