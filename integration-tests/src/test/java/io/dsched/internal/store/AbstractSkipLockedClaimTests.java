package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * On the databases that claim with {@code FOR UPDATE SKIP LOCKED}, a claim in progress holds up
 * no other node's claim: it locks the attempts it takes and nothing else.
 */
abstract class AbstractSkipLockedClaimTests {

    private TestDatabase database;

    private HikariDataSource dataSource;

    private final ExecutorService executor = Executors.newCachedThreadPool();

    protected abstract TestDatabases.Kind kind();

    /**
     * Counts the rows of {@code dsched_execution} that open transactions hold locked.
     * @param sql the database
     * @return how many
     */
    protected abstract long rowsLockedByOpenTransactions(JdbcTemplate sql);

    @BeforeEach
    void createDatabase() {
        this.database = TestDatabases.create(kind());
        this.dataSource = this.database.newDataSource();
    }

    @AfterEach
    void dropDatabase() {
        this.executor.shutdownNow();
        if (this.dataSource != null) {
            this.dataSource.close();
        }
        if (this.database != null) {
            this.database.close();
        }
    }

    @Test
    void aClaimInProgressHoldsUpNoOtherClaimWhileTheEntriesOfClaimedAttemptsAreStillThere() throws Exception {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = AbstractSchemaScriptTests.store(jdbc);
        assertThat(store.claims().claimsWithSkipLocked()).isTrue();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // a history, so that the claim reads the index of waiting attempts as it does in production
        List<ExecutionRecord> history = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            history.add(waiting("remind:old-" + i, now, now.minusSeconds(60)));
        }
        store.inserts().insertAll(history);
        new JdbcTemplate(this.dataSource)
                .update("UPDATE dsched_execution SET status = 'SUCCEEDED', finished_at = started_at");
        List<ExecutionRecord> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(waiting("remind:" + i, now, now.minusSeconds(8 - i)));
        }
        List<Long> ids = store.inserts().insertAll(waiting).stream()
                .map(ExecutionRecord::id)
                .toList();
        CountDownLatch commit = new CountDownLatch(1);
        // an open snapshot keeps the index entries that claimed attempts leave behind (InnoDB purges
        // them only once no reader can still see them), as a busy database does for a while
        try (Connection reader = this.dataSource.getConnection()) {
            reader.setAutoCommit(false);
            reader.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement statement = reader.createStatement();
                    ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM dsched_execution")) {
                assertThat(count.next()).isTrue();
            }
            assertThat(store.claims().claimDue("node-1", now, 2, List.of("remind")))
                    .extracting(ExecutionRecord::id)
                    .containsExactlyElementsOf(ids.subList(0, 2));
            try {
                Future<List<ExecutionRecord>> second = claimLeftOpen(jdbc, store, "node-2", now, commit);
                // a locking read of an index locks what it passes on its way, in InnoDB
                assertThat(rowsLockedByOpenTransactions(new JdbcTemplate(this.dataSource)))
                        .isEqualTo(2);
                Future<List<ExecutionRecord>> third = claimLeftOpen(jdbc, store, "node-3", now, commit);

                // the oldest four due attempts are held: the claim reads past them
                List<ExecutionRecord> fourth = this.executor
                        .submit(() -> store.claims().claimDue("node-4", now, 2, List.of("remind")))
                        .get(5, TimeUnit.SECONDS);

                assertThat(fourth).extracting(ExecutionRecord::id).containsExactlyElementsOf(ids.subList(6, 8));
                commit.countDown();
                assertThat(second.get(10, TimeUnit.SECONDS))
                        .extracting(ExecutionRecord::id)
                        .containsExactlyElementsOf(ids.subList(2, 4));
                assertThat(third.get(10, TimeUnit.SECONDS))
                        .extracting(ExecutionRecord::id)
                        .containsExactlyElementsOf(ids.subList(4, 6));
            } finally {
                commit.countDown();
            }
            reader.rollback();
        }
    }

    private static ExecutionRecord waiting(String key, Instant now, Instant dueAt) {
        return ExecutionRecord.waiting(
                "remind", now, 1, key, ExecutionOrigin.ONE_OFF, "client", now, dueAt, null, null);
    }

    /**
     * Claims two due attempts in a transaction of a thread of its own, as the queue does, which
     * stays open until {@code commit} counts down.
     */
    private Future<List<ExecutionRecord>> claimLeftOpen(
            DschedJdbc jdbc, ExecutionStore store, String node, Instant now, CountDownLatch commit) throws Exception {
        CountDownLatch claimed = new CountDownLatch(1);
        Future<List<ExecutionRecord>> claim =
                this.executor.submit(() -> jdbc.transactions().execute((tx) -> {
                    // what the claim does in a transaction of its own
                    new JdbcTemplate(this.dataSource).execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
                    List<ExecutionRecord> attempts = store.claims().claimDue(node, now, 2, List.of("remind"));
                    claimed.countDown();
                    try {
                        commit.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException ex) {
                        Thread.currentThread().interrupt();
                    }
                    return attempts;
                }));
        if (!claimed.await(10, TimeUnit.SECONDS)) {
            // fails with the claim's own error, if it had one
            claim.get(1, TimeUnit.SECONDS);
        }
        assertThat(claimed.getCount()).isZero();
        return claim;
    }
}
