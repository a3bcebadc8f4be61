package io.dsched.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims attempts and records their outcomes in {@code dsched_execution}. An outcome and what
 * follows from it (the next attempt, or the dead letter) are written in one transaction; so are a
 * submitted fire and the trace context it was submitted in ({@code dsched_execution_trace}).
 */
public class ExecutionStore implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionStore.class);

    private static final int MAX_MESSAGE = 2000;

    private static final int MAX_CLASS = 500;

    private static final int MAX_REASON = 500;

    private static final int INSERT_BATCH = 1000;

    /** One statement that claims due attempts, oldest first, passing over locked ones (PostgreSQL). */
    private static final String CLAIM_DUE_RETURNING = """
            UPDATE dsched_execution SET status = 'RUNNING', node_id = :nodeId, started_at = :now
             WHERE id IN (SELECT id FROM dsched_execution
                           WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
                             AND job_name IN (:names)
                           ORDER BY due_at LIMIT :limit
                             FOR UPDATE SKIP LOCKED)
            RETURNING *
            """;

    /**
     * The oldest waiting attempts that have fallen due, read without a lock (MySQL 8, MariaDB
     * 10.6+): one ordered range of the index on (status, due_at) for each waiting status. A locking
     * read of that index in InnoDB locks every entry it passes, the delete-marked entries that each
     * claim leaves behind included, so the claims of two nodes block each other and deadlock with
     * the writes of outcomes; this read locks nothing.
     */
    private static final String DUE_CANDIDATES_WHERE = """
            (SELECT id, due_at FROM dsched_execution
              WHERE status = 'RETRY_SCHEDULED' AND due_at <= :now AND job_name IN (:names)%1$s
              ORDER BY due_at LIMIT :limit)
            UNION ALL
            (SELECT id, due_at FROM dsched_execution
              WHERE status = 'SCHEDULED' AND due_at <= :now AND job_name IN (:names)%1$s
              ORDER BY due_at LIMIT :limit)
            ORDER BY due_at LIMIT :limit
            """;

    private static final String DUE_CANDIDATES = DUE_CANDIDATES_WHERE.formatted("");

    /** The next candidates, past those a claim tried already. */
    private static final String DUE_CANDIDATES_PAST_TRIED = DUE_CANDIDATES_WHERE.formatted(" AND id NOT IN (:tried)");

    /**
     * An instant as PostgreSQL reads a timestamp with time zone, in UTC, to the microsecond; unlike
     * {@code Instant.toString()} it writes a year past 9999 with no sign.
     */
    private static final DateTimeFormatter TIMESTAMP_TEXT = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL)
            .appendPattern("-MM-dd HH:mm:ss.SSSSSS'+00'")
            .toFormatter(Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** How many rounds of candidates one claim reads at most (MySQL, MariaDB). */
    private static final int CLAIM_ROUNDS = 3;

    /**
     * Locks candidates by their primary key if they still wait, passing over those another
     * transaction holds (MySQL 8, MariaDB 10.6+).
     */
    private static final String LOCK_WAITING = """
            SELECT * FROM dsched_execution
             WHERE id IN (:ids) AND status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
               FOR UPDATE SKIP LOCKED
            """;

    private static final String INSERT = """
            INSERT INTO dsched_execution (job_name, scheduled_at, attempt, idempotency_key, status, node_id,
                                          started_at, finished_at, error_class, error_message, status_reason,
                                          origin, due_at, payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    /** The insert of a batch from one array per column (PostgreSQL): see {@code insertArrays}. */
    private static final String INSERT_ARRAYS = INSERT.substring(0, INSERT.indexOf("VALUES")) + """
            SELECT * FROM unnest(?::varchar[], ?::timestamptz[], ?::int[], ?::varchar[], ?::varchar[],
                                 ?::varchar[], ?::timestamptz[], ?::timestamptz[], ?::varchar[], ?::varchar[],
                                 ?::varchar[], ?::varchar[], ?::timestamptz[], ?::text[])
            RETURNING id, idempotency_key, attempt
            """;

    /** The insert of a claim, passing over an existing attempt (PostgreSQL). */
    private static final String INSERT_OR_NOTHING_RETURNING = INSERT + " ON CONFLICT DO NOTHING RETURNING id";

    /**
     * The insert of a claim, passing over an existing attempt (MySQL, MariaDB). The row is built
     * by dsched, not by a client: IGNORE can only pass over the duplicate.
     */
    private static final String INSERT_IGNORE = INSERT.replaceFirst("INSERT INTO", "INSERT IGNORE INTO");

    private static final int COLUMNS = 14;

    private final ExecutionRepository repository;

    private final DeadLetterRepository deadLetters;

    private final TransactionTemplate transactions;

    private final boolean skipLocked;

    private final GroupedSuccesses successes;

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    /** The same statements with named parameters; it keeps each one parsed once. */
    private final NamedParameterJdbcTemplate named;

    private final DatabasePlatform platform;

    private final ExecutionTraces traces;

    private final CancelRequests cancels;

    /**
     * Creates a store.
     * @param repository the repository of executions
     * @param deadLetters the repository of dead letters
     * @param transactions transactions on dsched's DataSource
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     * @param skipLocked whether to claim due attempts in batches with {@code FOR UPDATE SKIP
     *     LOCKED}; ignored on H2, which claims each by a conditional update
     */
    public ExecutionStore(
            ExecutionRepository repository,
            DeadLetterRepository deadLetters,
            TransactionTemplate transactions,
            DataSource dataSource,
            DatabasePlatform platform,
            ClusterTables tables,
            boolean skipLocked) {
        this.repository = repository;
        this.deadLetters = deadLetters;
        this.transactions = transactions;
        this.skipLocked = skipLocked && platform != DatabasePlatform.H2;
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.named = tables.named(this.jdbc);
        this.platform = platform;
        this.successes = new GroupedSuccesses(this.jdbc, platform, tables, transactions);
        this.traces = new ExecutionTraces(this.jdbc, platform, tables);
        this.cancels = new CancelRequests(this.jdbc, platform, tables, transactions);
    }

    /**
     * Returns the cancellation of attempts.
     * @return the requests to cancel attempts
     */
    public CancelRequests cancels() {
        return this.cancels;
    }

    /**
     * Tells whether due attempts are claimed with {@code FOR UPDATE SKIP LOCKED}.
     * @return {@code true} if they are
     */
    public boolean claimsWithSkipLocked() {
        return this.skipLocked;
    }

    /**
     * Returns the repository, for queries over the history.
     * @return the repository
     */
    public ExecutionRepository repository() {
        return this.repository;
    }

    /**
     * Inserts an attempt under the unique (idempotency key, attempt): a claim of a running
     * attempt, or a waiting one. Only one insert of an attempt can succeed.
     * @param attempt the row to insert
     * @return the saved row, or empty if the attempt already exists
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord attempt) {
        try {
            return Optional.of(insert(attempt));
        } catch (DuplicateKeyException ex) {
            logger.debug("Attempt {} of '{}' already exists", attempt.attempt(), attempt.idempotencyKey());
            return Optional.empty();
        }
    }

    /**
     * Inserts an attempt as {@link #claim(ExecutionRecord)} does and, in the same transaction, the
     * trace context its fire was submitted in.
     * @param attempt the first attempt of a fire, waiting
     * @param traceCarrier the trace context's propagation fields, encoded, or {@code null} for none;
     *     one longer than 1000 characters is not stored
     * @return the saved row, or empty if the attempt already exists
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord attempt, String traceCarrier) {
        String carrier = storable(traceCarrier);
        if (carrier == null) {
            return claim(attempt);
        }
        try {
            return Optional.of(this.transactions.execute((tx) -> {
                ExecutionRecord saved = insert(attempt);
                this.traces.save(List.of(saved), carrier);
                return saved;
            }));
        } catch (DuplicateKeyException ex) {
            logger.debug("Attempt {} of '{}' already exists", attempt.attempt(), attempt.idempotencyKey());
            return Optional.empty();
        }
    }

    /**
     * Returns the trace context a fire was submitted in.
     * @param idempotencyKey the fire's key
     * @return its propagation fields, encoded, or empty if it was submitted outside a trace
     */
    public Optional<String> traceCarrier(String idempotencyKey) {
        return this.traces.find(idempotencyKey);
    }

    private static String storable(String traceCarrier) {
        if (traceCarrier != null && traceCarrier.length() > ExecutionTraces.MAX_CARRIER) {
            logger.debug(
                    "Not storing a trace context of {} characters; at most {} fit",
                    traceCarrier.length(),
                    ExecutionTraces.MAX_CARRIER);
            return null;
        }
        return traceCarrier;
    }

    /**
     * Claims first attempts of fires on a connection whose transaction the caller owns and
     * commits: the fires Quartz hands this node, claimed in the transaction that fires them, so
     * that a worker finds its fire claimed instead of claiming it with a commit of its own. A
     * fire that already has the attempt is left out, and so is everything on H2, which has no
     * insert that passes over a conflict without failing the transaction.
     * @param connection the connection, inside a transaction
     * @param claims the attempts to insert, each {@link ExecutionRecord#claim running}
     * @return the attempts inserted, by idempotency key
     * @throws SQLException if an insert fails
     */
    public Map<String, ExecutionRecord> claimOn(java.sql.Connection connection, List<ExecutionRecord> claims)
            throws SQLException {
        Map<String, ExecutionRecord> claimed = new HashMap<>();
        String sql =
                switch (this.platform) {
                    case POSTGRESQL -> INSERT_OR_NOTHING_RETURNING;
                    case MYSQL -> INSERT_IGNORE;
                    case H2 -> null;
                };
        if (sql == null) {
            return claimed;
        }
        boolean returning = this.platform == DatabasePlatform.POSTGRESQL;
        try (PreparedStatement statement = returning
                ? connection.prepareStatement(this.tables.sql(sql))
                : connection.prepareStatement(this.tables.sql(sql), java.sql.Statement.RETURN_GENERATED_KEYS)) {
            for (ExecutionRecord claim : claims) {
                bind(statement, 0, claim);
                Long id = null;
                if (returning) {
                    try (ResultSet keys = statement.executeQuery()) {
                        id = keys.next() ? keys.getLong(1) : null;
                    }
                } else if (statement.executeUpdate() == 1) {
                    try (ResultSet keys = statement.getGeneratedKeys()) {
                        id = keys.next() ? keys.getLong(1) : null;
                    }
                }
                if (id != null) {
                    claimed.put(claim.idempotencyKey(), claim.withId(id));
                }
            }
        }
        return claimed;
    }

    /**
     * Takes back, inside the transaction that inserted it, an attempt {@link #claimOn claimed}
     * there.
     * @param connection the connection, inside that transaction
     * @param claim the attempt
     * @throws SQLException if the delete fails
     */
    public void unclaimOn(java.sql.Connection connection, ExecutionRecord claim) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement(this.tables.sql("DELETE FROM dsched_execution WHERE id = ?"))) {
            statement.setLong(1, claim.id());
            statement.executeUpdate();
        }
    }

    private ExecutionRecord insert(ExecutionRecord row) {
        return row.withId(insertBatch(List.of(row)).get(0));
    }

    /**
     * Inserts new waiting attempts, whose idempotency keys no other row has, in batches of one
     * transaction each.
     * @param attempts the rows to insert
     * @return the saved rows, in order
     */
    public List<ExecutionRecord> insertAll(List<ExecutionRecord> attempts) {
        return insertAll(attempts, null);
    }

    /**
     * Inserts new waiting attempts as {@link #insertAll(List)} does and, in the transaction of
     * each batch, the trace context they were submitted in.
     * @param attempts the rows to insert
     * @param traceCarrier the trace context's propagation fields, encoded, or {@code null} for none;
     *     one longer than 1000 characters is not stored
     * @return the saved rows, in order
     */
    public List<ExecutionRecord> insertAll(List<ExecutionRecord> attempts, String traceCarrier) {
        String carrier = storable(traceCarrier);
        List<ExecutionRecord> saved = new ArrayList<>(attempts.size());
        for (int from = 0; from < attempts.size(); from += INSERT_BATCH) {
            List<ExecutionRecord> batch = attempts.subList(from, Math.min(attempts.size(), from + INSERT_BATCH));
            List<Long> ids = this.transactions.execute((tx) -> {
                List<Long> inserted = insertBatch(batch);
                if (carrier != null) {
                    this.traces.save(batch, carrier);
                }
                return inserted;
            });
            for (int i = 0; i < batch.size(); i++) {
                saved.add(batch.get(i).withId(ids.get(i)));
            }
        }
        return saved;
    }

    private MapSqlParameterSource dueParameters(Instant now, int limit, Collection<String> names) {
        return new MapSqlParameterSource()
                .addValue("now", this.platform.bindable(now))
                .addValue("limit", limit)
                .addValue("names", names);
    }

    /** One insert of one row that returns the id it gave (PostgreSQL). */
    private List<Long> insertReturning(ExecutionRecord row) {
        Long id = this.jdbc.query(
                this.tables.sql(INSERT + " RETURNING id"),
                (statement) -> bind(statement, 0, row),
                (ResultSet result) -> result.next() ? result.getLong(1) : null);
        if (id == null) {
            throw new IllegalStateException("Inserted an attempt but got no id");
        }
        return List.of(id);
    }

    /**
     * One insert of a whole batch from one array per column, which returns the ids it gave
     * (PostgreSQL): a statement of 14 parameters, parsed and planned in no time, whatever the size
     * of the batch. Instants travel as text in UTC with their offset, so the session's time zone
     * plays no part.
     */
    private List<Long> insertArrays(List<ExecutionRecord> batch) {
        int size = batch.size();
        Object[][] columns = new Object[COLUMNS][size];
        for (int i = 0; i < size; i++) {
            ExecutionRecord row = batch.get(i);
            columns[0][i] = row.jobName();
            columns[1][i] = text(row.scheduledAt());
            columns[2][i] = row.attempt();
            columns[3][i] = row.idempotencyKey();
            columns[4][i] = row.status().name();
            columns[5][i] = row.nodeId();
            columns[6][i] = text(row.startedAt());
            columns[7][i] = text(row.finishedAt());
            columns[8][i] = row.errorClass();
            columns[9][i] = row.errorMessage();
            columns[10][i] = row.statusReason();
            columns[11][i] = row.origin().name();
            columns[12][i] = text(row.dueAt());
            columns[13][i] = row.payload();
        }
        Map<String, Long> ids = new HashMap<>();
        this.jdbc.query(
                (connection) -> {
                    PreparedStatement statement = connection.prepareStatement(this.tables.sql(INSERT_ARRAYS));
                    for (int column = 0; column < COLUMNS; column++) {
                        String type = (column == 2) ? "int4" : "text";
                        statement.setArray(column + 1, connection.createArrayOf(type, columns[column]));
                    }
                    return statement;
                },
                (row) -> {
                    ids.put(row.getString("idempotency_key") + "#" + row.getInt("attempt"), row.getLong("id"));
                });
        return inOrder(batch, ids);
    }

    private static String text(Instant instant) {
        return (instant != null) ? TIMESTAMP_TEXT.format(instant) : null;
    }

    /**
     * One JDBC batch of the insert, then one read of the ids it gave by the rows' unique keys
     * (MySQL, MariaDB): MariaDB's driver sends such a batch in one go, as it does not when generated
     * keys are asked for; MySQL Connector/J does with {@code rewriteBatchedStatements=true}.
     */
    private List<Long> insertThenRead(List<ExecutionRecord> batch) {
        this.jdbc.batchUpdate(this.tables.sql(INSERT), binding(batch));
        Map<String, Long> ids = new HashMap<>();
        List<String> keys =
                batch.stream().map(ExecutionRecord::idempotencyKey).distinct().toList();
        this.named.query(
                "SELECT id, idempotency_key, attempt FROM dsched_execution WHERE idempotency_key IN (:keys)",
                new MapSqlParameterSource("keys", keys),
                (row) -> {
                    ids.put(row.getString("idempotency_key") + "#" + row.getInt("attempt"), row.getLong("id"));
                });
        return inOrder(batch, ids);
    }

    private static List<Long> inOrder(List<ExecutionRecord> batch, Map<String, Long> ids) {
        List<Long> ordered = new ArrayList<>(batch.size());
        for (ExecutionRecord row : batch) {
            Long id = ids.get(row.idempotencyKey() + "#" + row.attempt());
            if (id == null) {
                throw new IllegalStateException("Inserted " + batch.size() + " attempts but found no id for attempt "
                        + row.attempt() + " of '" + row.idempotencyKey() + "'");
            }
            ordered.add(id);
        }
        return ordered;
    }

    private BatchPreparedStatementSetter binding(List<ExecutionRecord> batch) {
        return new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int i) throws SQLException {
                bind(statement, 0, batch.get(i));
            }

            @Override
            public int getBatchSize() {
                return batch.size();
            }
        };
    }

    private void bind(PreparedStatement statement, int offset, ExecutionRecord row) throws SQLException {
        statement.setString(offset + 1, row.jobName());
        bindInstant(statement, offset + 2, row.scheduledAt());
        statement.setInt(offset + 3, row.attempt());
        statement.setString(offset + 4, row.idempotencyKey());
        statement.setString(offset + 5, row.status().name());
        statement.setString(offset + 6, row.nodeId());
        bindInstant(statement, offset + 7, row.startedAt());
        bindInstant(statement, offset + 8, row.finishedAt());
        statement.setString(offset + 9, row.errorClass());
        statement.setString(offset + 10, row.errorMessage());
        statement.setString(offset + 11, row.statusReason());
        statement.setString(offset + 12, row.origin().name());
        bindInstant(statement, offset + 13, row.dueAt());
        statement.setString(offset + 14, row.payload());
    }

    private void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        if (instant == null) {
            statement.setNull(index, this.platform.timestampType().getVendorTypeNumber());
        } else {
            statement.setObject(index, this.platform.bindable(instant));
        }
    }

    /** Maps a row of {@code dsched_execution} by hand: the claim is the hottest read there is. */
    private ExecutionRecord mapRow(ResultSet row, int number) throws SQLException {
        return new ExecutionRecord(
                row.getLong("id"),
                row.getString("job_name"),
                this.platform.readInstant(row, "scheduled_at"),
                row.getInt("attempt"),
                row.getString("idempotency_key"),
                ExecutionStatus.valueOf(row.getString("status")),
                row.getString("node_id"),
                this.platform.readInstant(row, "started_at"),
                this.platform.readInstant(row, "finished_at"),
                row.getString("error_class"),
                row.getString("error_message"),
                row.getString("status_reason"),
                ExecutionOrigin.valueOf(row.getString("origin")),
                this.platform.readInstant(row, "due_at"),
                row.getString("payload"));
    }

    private List<Long> insertBatch(List<ExecutionRecord> batch) {
        if (this.platform == DatabasePlatform.POSTGRESQL) {
            return (batch.size() == 1) ? insertReturning(batch.get(0)) : insertArrays(batch);
        }
        if (this.platform == DatabasePlatform.MYSQL && batch.size() > 1) {
            return insertThenRead(batch);
        }
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        this.jdbc.batchUpdate(
                (connection) -> connection.prepareStatement(this.tables.sql(INSERT), new String[] {"id"}),
                binding(batch),
                keys);
        List<Long> ids = keys.getKeyList().stream()
                .map((key) -> ((Number) key.values().iterator().next()).longValue())
                .toList();
        if (ids.size() != batch.size()) {
            throw new IllegalStateException("Inserted " + batch.size() + " attempts but got " + ids.size() + " ids");
        }
        return ids;
    }

    /**
     * Locks up to {@code limit} of the oldest due attempts (MySQL, MariaDB). Each round reads
     * twice as many candidates as are still wanted, so that a claim racing another node's for the
     * oldest attempts takes the next ones, and a further round reads past those tried when the
     * others took all of them.
     */
    private List<ExecutionRecord> lockDue(Instant now, int limit, Collection<String> names) {
        List<ExecutionRecord> locked = new ArrayList<>();
        List<Long> tried = new ArrayList<>();
        for (int round = 0; round < CLAIM_ROUNDS && locked.size() < limit; round++) {
            int wanted = 2 * (limit - locked.size());
            List<Long> candidates = this.named.query(
                    tried.isEmpty() ? DUE_CANDIDATES : DUE_CANDIDATES_PAST_TRIED,
                    dueParameters(now, wanted, names).addValue("tried", tried),
                    (row, number) -> row.getLong("id"));
            for (int from = 0; from < candidates.size() && locked.size() < limit; ) {
                int to = Math.min(candidates.size(), from + limit - locked.size());
                locked.addAll(this.named.query(
                        LOCK_WAITING,
                        new MapSqlParameterSource("ids", candidates.subList(from, to))
                                .addValue("now", this.platform.bindable(now)),
                        this::mapRow));
                from = to;
            }
            if (candidates.size() < wanted) {
                break;
            }
            tried.addAll(candidates);
        }
        return locked;
    }

    private static List<ExecutionRecord> oldestFirst(List<ExecutionRecord> claimed) {
        return claimed.stream()
                .sorted(Comparator.comparing(ExecutionRecord::dueAt).thenComparing(ExecutionRecord::id))
                .toList();
    }

    /**
     * Claims waiting attempts that have fallen due.
     * @param nodeId the claiming node
     * @param now the current time
     * @param limit how many at most
     * @param names the jobs and handlers the node can run
     * @return the attempts this node claimed, now running: the oldest due, oldest first
     */
    public List<ExecutionRecord> claimDue(String nodeId, Instant now, int limit, Collection<String> names) {
        if (this.skipLocked && this.platform == DatabasePlatform.POSTGRESQL) {
            return this.transactions.execute((tx) -> {
                // right after a large batch of submissions the planner's statistics still say the
                // table is small, and it would read every waiting row and sort them to find the
                // oldest few; the index of waiting rows gives them in order at any size
                this.jdbc.execute("SET LOCAL enable_sort = off");
                return oldestFirst(this.named.query(
                        CLAIM_DUE_RETURNING,
                        dueParameters(now, limit, names).addValue("nodeId", nodeId),
                        this::mapRow));
            });
        }
        if (this.skipLocked) {
            return this.transactions.execute((tx) -> {
                if (tx.isNewTransaction()) {
                    // a snapshot would make the locking read of a row claimed since it fail (MariaDB
                    // with innodb_snapshot_isolation), and would keep the rows it turns down locked
                    this.jdbc.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
                }
                List<ExecutionRecord> locked = lockDue(now, limit, names);
                if (locked.isEmpty()) {
                    return List.of();
                }
                List<Long> ids = locked.stream().map(ExecutionRecord::id).toList();
                int updated = this.repository.claimLocked(ids, nodeId, now);
                if (updated != ids.size()) {
                    throw new IllegalStateException(
                            "Locked " + ids.size() + " due attempts but could claim only " + updated);
                }
                return oldestFirst(locked.stream()
                        .map((attempt) -> attempt.claimedBy(nodeId, now))
                        .toList());
            });
        }
        // one conditional update per attempt: the first node to change the row has it
        List<ExecutionRecord> claimed = new ArrayList<>();
        for (ExecutionRecord candidate : this.repository.findDue(now, limit, names)) {
            if (this.repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, now) == 1) {
                claimed.add(candidate.claimedBy(nodeId, now));
            }
        }
        return claimed;
    }

    /**
     * Records the final outcome of a running attempt.
     * @param claim the running attempt
     * @param status its final state
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with, or {@code null}
     * @param reason why it is in its state, or {@code null}
     * @throws IllegalStateException if the transition is illegal or the attempt is no longer
     *     running on the claiming node
     */
    public void finish(
            ExecutionRecord claim,
            ExecutionStatus status,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason) {
        ExecutionStatus.RUNNING.checkMoveTo(status);
        int updated = this.repository.finish(
                claim.id(),
                claim.nodeId(),
                status.name(),
                startedAt,
                finishedAt,
                (error != null) ? truncate(error.getClass().getName(), MAX_CLASS) : null,
                (error != null) ? truncate(String.valueOf(error.getMessage()), MAX_MESSAGE) : null,
                truncate(reason, MAX_REASON));
        if (updated != 1) {
            throw new LostClaimException(claim, status);
        }
    }

    /**
     * Records that a running attempt succeeded, in the background: the outcomes of attempts that
     * succeed at about the same time on this node are written in one transaction. Until then the
     * attempt stays RUNNING on this node.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @return completes once the outcome is written; exceptionally with a {@link
     *     LostClaimException} if the attempt no longer runs on the claiming node, or with what the
     *     database failed with
     */
    public CompletableFuture<Void> succeed(ExecutionRecord claim, Instant startedAt, Instant finishedAt) {
        return succeed(claim, startedAt, finishedAt, null);
    }

    /**
     * Records an attempt that succeeded, as {@link #succeed(ExecutionRecord, Instant, Instant)}
     * does, and releases its job's guard in the same transaction: the guard stays held until the
     * outcome is written.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param guard the job's guard, or {@code null}
     * @return completes once the outcome is written and the guard released; exceptionally with a
     *     {@link LostClaimException} if the attempt no longer runs on the claiming node (the guard
     *     is released all the same), or with what the database failed with
     */
    public CompletableFuture<Void> succeed(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, LockTable.Release guard) {
        return this.successes.succeed(claim, startedAt, finishedAt, guard).thenAccept((written) -> {
            if (!written) {
                throw new LostClaimException(claim, ExecutionStatus.SUCCEEDED);
            }
        });
    }

    /**
     * Records a failed attempt and schedules the next one, atomically.
     * @param claim the running attempt
     * @param status {@link ExecutionStatus#FAILED} or {@link ExecutionStatus#TIMED_OUT}
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param reason why, or {@code null}
     * @param next the waiting attempt to insert
     */
    public void failAndRetry(
            ExecutionRecord claim,
            ExecutionStatus status,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason,
            ExecutionRecord next) {
        this.transactions.executeWithoutResult((tx) -> {
            finish(claim, status, startedAt, finishedAt, error, reason);
            insert(next);
        });
    }

    /**
     * Records a failed attempt's outcome, unless someone asked to stop the attempt: then it is
     * {@code CANCELLED} instead, neither retried nor dead-lettered. The request is looked for under
     * the attempt's row lock, in the outcome's transaction, so that a request written at the same
     * moment either is seen here or finds the attempt ended.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param outcome writes the outcome otherwise, joining this transaction
     * @return who asked to stop the attempt, if it was cancelled instead
     */
    public Optional<String> failUnlessStopped(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, Throwable error, Runnable outcome) {
        return this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(claim.id());
            if (stoppedBy.isPresent()) {
                cancel(claim, startedAt, finishedAt, error, stoppedBy.get());
            } else {
                outcome.run();
            }
            return stoppedBy;
        });
    }

    /**
     * Records that a running attempt was stopped on request.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it ended with, or {@code null}
     * @param requestedBy who asked to stop it
     */
    public void cancel(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, Throwable error, String requestedBy) {
        finish(claim, ExecutionStatus.CANCELLED, startedAt, finishedAt, error, CancelRequests.reason(requestedBy));
    }

    /**
     * Records a failed attempt as the last one of its fire and files the dead letter,
     * atomically.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param reason why it is not retried
     * @param letter makes the letter, given the fire's first failure time
     * @return the filed letter
     */
    public DeadLetter deadLetter(
            ExecutionRecord claim,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason,
            Function<Instant, DeadLetter> letter) {
        return this.transactions.execute((tx) -> {
            finish(claim, ExecutionStatus.DEAD_LETTERED, startedAt, finishedAt, error, reason);
            Instant firstFailure = this.repository.findByIdempotencyKey(claim.idempotencyKey()).stream()
                    .filter((attempt) -> attempt.errorClass() != null && attempt.finishedAt() != null)
                    .map(ExecutionRecord::finishedAt)
                    .min(Instant::compareTo)
                    .orElse(finishedAt);
            return this.deadLetters.save(letter.apply(firstFailure));
        });
    }

    /**
     * Takes over an attempt whose node died: marks it failed, fenced on its node, and schedules
     * the attempt that re-runs it, atomically.
     * @param orphan the running attempt of the dead node
     * @param now the current time
     * @param reason why it is taken over
     * @param next the waiting attempt that re-runs it, or {@code null} to dead-letter instead
     * @param letter makes the dead letter when {@code next} is {@code null}
     * @return {@code true} if this node took it over, {@code false} if another did first
     */
    public boolean rescue(
            ExecutionRecord orphan,
            Instant now,
            String reason,
            ExecutionRecord next,
            Function<Instant, DeadLetter> letter) {
        Boolean rescued = this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(orphan.id());
            if (stoppedBy.isPresent()) {
                // someone asked to stop it: it is not run again
                return this.repository.finish(
                                orphan.id(),
                                orphan.nodeId(),
                                ExecutionStatus.CANCELLED.name(),
                                orphan.startedAt(),
                                now,
                                NodeLostException.class.getName(),
                                truncate(reason, MAX_MESSAGE),
                                truncate(CancelRequests.reason(stoppedBy.get()), MAX_REASON))
                        == 1;
            }
            ExecutionStatus status = (next != null) ? ExecutionStatus.FAILED : ExecutionStatus.DEAD_LETTERED;
            int updated = this.repository.finish(
                    orphan.id(),
                    orphan.nodeId(),
                    status.name(),
                    orphan.startedAt(),
                    now,
                    NodeLostException.class.getName(),
                    truncate(reason, MAX_MESSAGE),
                    truncate(reason, MAX_REASON));
            if (updated != 1) {
                return false;
            }
            if (next != null) {
                insert(next);
            } else {
                this.deadLetters.save(letter.apply(now));
            }
            return true;
        });
        return Boolean.TRUE.equals(rescued);
    }

    /**
     * Puts a claimed attempt back to wait, unless someone asked to stop it meanwhile: then it is
     * cancelled, under the attempt's row lock, as a request written at the same moment either is
     * seen here or finds the attempt waiting, which it cancels itself.
     * @param claim the running attempt
     * @param dueAt when it falls due again
     * @param reason why it waits
     * @return {@code true} if it was put back or cancelled
     */
    public boolean defer(ExecutionRecord claim, Instant dueAt, String reason) {
        ExecutionStatus waiting = (claim.attempt() == 1) ? ExecutionStatus.SCHEDULED : ExecutionStatus.RETRY_SCHEDULED;
        return Boolean.TRUE.equals(this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(claim.id());
            if (stoppedBy.isPresent()) {
                cancel(claim, claim.startedAt(), claim.startedAt(), null, stoppedBy.get());
                return true;
            }
            return this.repository.defer(
                            claim.id(), claim.nodeId(), waiting.name(), dueAt, truncate(reason, MAX_REASON))
                    == 1;
        }));
    }

    /** Writes the outcomes still waiting for their commit, then stops the writer. */
    @Override
    public void close() {
        this.successes.close();
    }

    static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }

    /** The error class recorded for an attempt whose node died while running it. */
    public static final class NodeLostException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private NodeLostException() {}
    }

    /**
     * An attempt's outcome could not be written because the attempt is no longer running on the
     * node that claimed it: another node took it over.
     */
    public static final class LostClaimException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        LostClaimException(ExecutionRecord claim, ExecutionStatus status) {
            super("Execution " + claim.id() + " of '" + claim.jobName() + "' is no longer RUNNING on node "
                    + claim.nodeId() + "; not recording " + status);
        }
    }
}
