package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.management.views.ExecutionDetail;
import io.dsched.internal.management.views.PageView;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.Pages;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;

/** The attempts, page by page and one by one, as the management endpoint reads them. */
public class ExecutionViews {

    private final ExecutionRepository executions;

    private final JdbcAggregateOperations aggregates;

    private final ManagedJobs jobs;

    private final Function<Long, Optional<?>> logs;

    /**
     * Creates the views.
     * @param executions the execution history
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     * @param jobs the jobs management knows
     * @param logs finds what an attempt logged, by execution id
     */
    public ExecutionViews(
            ExecutionRepository executions,
            JdbcAggregateOperations aggregates,
            ManagedJobs jobs,
            Function<Long, Optional<?>> logs) {
        this.executions = executions;
        this.aggregates = aggregates;
        this.jobs = jobs;
        this.logs = logs;
    }

    /**
     * Lists attempts, newest first.
     * @param job only this job's, or {@code null}
     * @param status only those in this state, or {@code null}
     * @param page which page
     * @return the page
     */
    public PageView<ExecutionRecord> executions(String job, ExecutionStatus status, Pageable page) {
        Criteria criteria = Criteria.empty();
        if (job != null) {
            criteria = criteria.and("jobName").is(job);
        }
        if (status != null) {
            criteria = criteria.and("status").is(status.name());
        }
        return PageView.of(
                Pages.read(this.aggregates, ExecutionRecord.class, criteria, Sort.by(Sort.Order.desc("id")), page));
    }

    /**
     * Returns one attempt with the other attempts at its fire, its dead letter and its log.
     * @param id the execution id
     * @return the attempt
     * @throws ManagementException (404) if there is no such attempt
     */
    public ExecutionDetail execution(long id) {
        ExecutionRecord execution = this.executions
                .findById(id)
                .orElseThrow(() -> ManagementException.notFound("No execution with id " + id));
        List<ExecutionRecord> attempts = this.executions.findByIdempotencyKey(execution.idempotencyKey()).stream()
                .sorted(Comparator.comparingInt(ExecutionRecord::attempt).thenComparing(ExecutionRecord::id))
                .toList();
        List<DeadLetter> letters = this.aggregates
                .findAll(Query.query(Criteria.where("idempotencyKey").is(execution.idempotencyKey())), DeadLetter.class)
                .stream()
                .sorted(Comparator.comparing(DeadLetter::id))
                .toList();
        return new ExecutionDetail(
                execution,
                this.jobs.zoneOf(execution.jobName()),
                attempts,
                letters.isEmpty() ? null : letters.get(letters.size() - 1),
                letters,
                this.logs.apply(id).orElse(null));
    }
}
