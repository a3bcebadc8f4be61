package io.dsched.internal.deadletter;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.Pages;
import io.dsched.internal.text.BoundedText;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.StringUtils;

/**
 * The dead letters of the cluster: list them, replay them under their original idempotency key,
 * or discard them with a reason. Of two operators acting on one letter at once, only one
 * succeeds: a letter replayed from two nodes at once runs once.
 */
public class DeadLetters {

    private static final int MAX_REASON = 1000;

    private final JdbcAggregateOperations aggregates;

    private final DeadLetterRepository letters;

    private final ExecutionRepository executions;

    private final TransactionTemplate transactions;

    private final String nodeId;

    private final Clock clock;

    private final DueNotice dueNotice;

    private final UnaryOperator<ExecutionRecord> order;

    private final Function<String, Optional<List<String>>> broadcastNodes;

    /**
     * Creates the API.
     * @param aggregates Spring Data JDBC operations on dsched's DataSource
     * @param letters the repository of dead letters
     * @param executions the repository of executions
     * @param transactions transactions on dsched's DataSource
     * @param nodeId this node
     * @param clock the clock
     * @param dueNotice announces attempts that fell due now
     * @param order gives a replay whose fire has no attempt left in the history its handler's
     *     priority and limit key
     * @param broadcastNodes the nodes that run a broadcast job now, or empty for a job that is not
     *     one: a broadcast job's replay is written for the node its letter's attempt failed on, and
     *     refused if that node does not run the job any more
     */
    public DeadLetters(
            JdbcAggregateOperations aggregates,
            DeadLetterRepository letters,
            ExecutionRepository executions,
            TransactionTemplate transactions,
            String nodeId,
            Clock clock,
            DueNotice dueNotice,
            UnaryOperator<ExecutionRecord> order,
            Function<String, Optional<List<String>>> broadcastNodes) {
        this.broadcastNodes = broadcastNodes;
        this.aggregates = aggregates;
        this.letters = letters;
        this.executions = executions;
        this.transactions = transactions;
        this.nodeId = nodeId;
        this.clock = clock;
        this.dueNotice = dueNotice;
        this.order = order;
    }

    /**
     * Lists dead letters, newest failure first.
     * @param filter which letters
     * @param page which page
     * @return the page of letters
     */
    public Page<DeadLetter> list(DeadLetterFilter filter, Pageable page) {
        Criteria criteria = Criteria.empty();
        if (StringUtils.hasText(filter.jobName())) {
            criteria = criteria.and("jobName").is(filter.jobName());
        }
        if (filter.status() != null) {
            criteria = criteria.and("status").is(filter.status().name());
        }
        if (filter.failedFrom() != null) {
            criteria = criteria.and("lastFailedAt").greaterThanOrEquals(filter.failedFrom());
        }
        if (filter.failedTo() != null) {
            criteria = criteria.and("lastFailedAt").lessThan(filter.failedTo());
        }
        return Pages.read(
                this.aggregates,
                DeadLetter.class,
                criteria,
                Sort.by(Sort.Order.desc("lastFailedAt"), Sort.Order.desc("id")),
                page);
    }

    /**
     * Finds one letter.
     * @param id the letter's id
     * @return the letter, or empty
     */
    public Optional<DeadLetter> find(long id) {
        return this.letters.findById(id);
    }

    /**
     * Replays an open letter: schedules one more attempt at its fire, due now, under the fire's
     * idempotency key, recorded with origin {@link ExecutionOrigin#REPLAY}.
     * @param id the letter's id
     * @param actor who replays it
     * @param reason why
     * @return the scheduled attempt, or empty if the letter is unknown or no longer open
     * @throws ReplayRefusedException for a broadcast job's letter whose node does not run the job
     */
    public Optional<ExecutionRecord> replay(long id, String actor, String reason) {
        checkActor(actor);
        Instant now = this.clock.instant();
        Optional<ExecutionRecord> replay = this.transactions.execute((tx) -> {
            if (this.letters.close(
                            id, DeadLetterStatus.REPLAYED.name(), actor, BoundedText.cut(reason, MAX_REASON), now)
                    != 1) {
                return Optional.<ExecutionRecord>empty();
            }
            DeadLetter letter = this.letters.findById(id).orElseThrow();
            // a broadcast fire's shard runs on its node; a run by hand of the job on any node
            Optional<List<String>> broadcast = (Sharding.shardOf(letter.idempotencyKey()) != null)
                    ? this.broadcastNodes.apply(letter.jobName())
                    : Optional.empty();
            if (broadcast.isPresent() && !broadcast.get().contains(letter.nodeId())) {
                // rolls the letter's closing back: it stays open
                throw new ReplayRefusedException("Dead letter " + id + " is of broadcast job '" + letter.jobName()
                        + "' on node " + letter.nodeId() + ", which does not run it now; discard it instead");
            }
            // the replay is claimed in the order, and counted by the limit key, of the fire's last
            // attempt; or, once housekeeping deleted the fire's attempts, of its handler and payload
            Optional<ExecutionRecord> last = this.executions.findByIdempotencyKey(letter.idempotencyKey()).stream()
                    .max(Comparator.comparingInt(ExecutionRecord::attempt));
            int attempt = last.map(ExecutionRecord::attempt).orElse(letter.attempts());
            ExecutionRecord next = ExecutionRecord.waiting(
                    letter.jobName(),
                    letter.scheduledAt(),
                    attempt + 1,
                    letter.idempotencyKey(),
                    ExecutionOrigin.REPLAY,
                    broadcast.isPresent() ? letter.nodeId() : this.nodeId,
                    now,
                    now,
                    letter.payload(),
                    "replay of dead letter " + id + " by " + actor);
            next = last.isPresent()
                    ? next.queued(last.get().priority(), last.get().limitKey())
                    : this.order.apply(next);
            return Optional.of(this.executions.save(next));
        });
        replay.ifPresent((attempt) -> this.dueNotice.due(List.of(attempt.jobName())));
        return Objects.requireNonNull(replay);
    }

    /**
     * Replays several letters; those not open, and those refused (a broadcast job's whose node does
     * not run it), are left out.
     * @param ids the letters' ids
     * @param actor who replays them
     * @param reason why
     * @return the scheduled attempts
     */
    public List<ExecutionRecord> replayAll(List<Long> ids, String actor, String reason) {
        List<ExecutionRecord> replays = new ArrayList<>();
        for (long id : ids) {
            try {
                replay(id, actor, reason).ifPresent(replays::add);
            } catch (ReplayRefusedException ex) {
                // left open, as its refusal says
            }
        }
        return replays;
    }

    /**
     * Discards an open letter.
     * @param id the letter's id
     * @param actor who discards it
     * @param reason why; required
     * @return {@code true} if it was open and is now discarded
     */
    public boolean discard(long id, String actor, String reason) {
        checkActor(actor);
        if (!StringUtils.hasText(reason)) {
            throw new IllegalArgumentException("A reason is required to discard a dead letter");
        }
        return this.letters.close(
                        id,
                        DeadLetterStatus.DISCARDED.name(),
                        actor,
                        BoundedText.cut(reason, MAX_REASON),
                        this.clock.instant())
                == 1;
    }

    /**
     * Counts the open letters.
     * @return the backlog
     */
    public long openCount() {
        return this.aggregates.count(
                Query.query(Criteria.where("status").is(DeadLetterStatus.OPEN.name())), DeadLetter.class);
    }

    private static void checkActor(String actor) {
        if (!StringUtils.hasText(actor)) {
            throw new IllegalArgumentException("Say who acts on the dead letter");
        }
    }
}
