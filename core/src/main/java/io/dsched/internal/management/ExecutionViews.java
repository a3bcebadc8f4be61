package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.management.views.ExecutionDetail;
import io.dsched.internal.management.views.PageView;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.ExecutionRepository;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;

/** The attempts, page by page and one by one, as the management endpoint reads them. */
public class ExecutionViews {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionViews.class);

    /** How many attempts past the first of a page a list counts, at most. */
    static final long COUNTED_BEYOND = 10_000;

    private final ExecutionRepository executions;

    private final JdbcAggregateOperations aggregates;

    private final ManagedJobs jobs;

    private final Function<Long, Optional<?>> logs;

    private final JobStatistics statistics;

    private final Function<ExecutionRecord, Optional<String>> waitingFor;

    /**
     * Creates the views.
     * @param executions the execution history
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     * @param jobs the jobs management knows
     * @param logs finds what an attempt logged, by execution id
     * @param statistics counts the attempts of a list
     * @param waitingFor why a due attempt still waits, if its handler's limits say why
     */
    public ExecutionViews(
            ExecutionRepository executions,
            JdbcAggregateOperations aggregates,
            ManagedJobs jobs,
            Function<Long, Optional<?>> logs,
            JobStatistics statistics,
            Function<ExecutionRecord, Optional<String>> waitingFor) {
        this.waitingFor = waitingFor;
        this.executions = executions;
        this.aggregates = aggregates;
        this.jobs = jobs;
        this.logs = logs;
        this.statistics = statistics;
    }

    /**
     * Lists attempts, newest first, with their count up to {@value #COUNTED_BEYOND} beyond the
     * page's first: past that, the total is a lower bound ({@link PageView#totalExact()} false).
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
        List<ExecutionRecord> content = this.aggregates.findAll(
                Query.query(criteria)
                        .sort(Sort.by(Sort.Order.desc("id")))
                        .limit(page.getPageSize())
                        .offset(page.getOffset()),
                ExecutionRecord.class);
        long cap = page.getOffset() + COUNTED_BEYOND;
        long counted = this.statistics.countUpTo(job, status, cap + 1);
        return new PageView<>(
                content, page.getPageNumber(), page.getPageSize(), Math.min(counted, cap), counted <= cap);
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
                this.logs.apply(id).orElse(null),
                waitingFor(execution));
    }

    /** Why a due attempt waits, as its handler's limits say; an attempt's page shows without it if they cannot. */
    private String waitingFor(ExecutionRecord execution) {
        try {
            return this.waitingFor.apply(execution).orElse(null);
        } catch (RuntimeException ex) {
            logger.debug("Could not read why attempt {} waits: {}", execution.id(), ex.getMessage());
            return null;
        }
    }
}
