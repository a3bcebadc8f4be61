package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * A node that lost its claim on an attempt cannot record an outcome of it, a success (written in
 * groups, in the background) as little as a failure: the write is fenced on the attempt's state
 * and on its node. The state alone fences a node whose attempt was taken over (its row is ended
 * and the run goes on in a row of its own); the node fences a row that went back to wait and was
 * claimed again by another node, which is then running it under the same id. Run against each
 * database by a small subclass.
 */
abstract class AbstractFencedOutcomeTests {

    private static final List<String> JOBS = List.of("remind");

    private TestDatabase database;

    private HikariDataSource dataSource;

    private ExecutionStore store;

    private Instant now;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void createStore() {
        this.database = TestDatabases.create(kind());
        this.dataSource = this.database.newDataSource();
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        this.store = AbstractSchemaScriptTests.store(jdbc);
        this.now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }

    @AfterEach
    void dropDatabase() {
        if (this.store != null) {
            this.store.close();
        }
        if (this.dataSource != null) {
            this.dataSource.close();
        }
        if (this.database != null) {
            this.database.close();
        }
    }

    @Test
    void aNodeWhoseAttemptWentBackAndRunsOnAnotherNodeCannotRecordItsSuccess() throws Exception {
        ExecutionRecord lost = claimOn("node-1", "remind:lost");
        ExecutionRecord kept = claimOn("node-1", "remind:kept");
        // node-1 gives its claim back (as when the job's guard is held elsewhere) and node-2 takes it
        assertThat(this.store.outcomes().defer(lost, this.now, "waiting for another run of the job"))
                .isTrue();
        ExecutionRecord retaken = claimOn("node-2", "remind:lost");
        assertThat(retaken.id()).isEqualTo(lost.id());

        // both successes of node-1 are handed over together: the one it still owns is written alone
        CompletableFuture<Void> stale = this.store.outcomes().succeed(lost, this.now, this.now.plusMillis(5));
        CompletableFuture<Void> own = this.store.outcomes().succeed(kept, this.now, this.now.plusMillis(5));
        assertLost(stale);
        own.get(10, TimeUnit.SECONDS);
        assertThat(row(lost.id())).satisfies((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.RUNNING);
            assertThat(row.nodeId()).isEqualTo("node-2");
        });
        assertThat(row(kept.id()).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        // nor can it record a failure over node-2's run; node-2 records its own outcome
        assertThatThrownBy(() -> this.store
                        .outcomes()
                        .finish(
                                lost,
                                ExecutionStatus.FAILED,
                                this.now,
                                this.now,
                                new IllegalStateException("late"),
                                null))
                .isInstanceOf(LostClaimException.class);
        this.store.outcomes().succeed(retaken, this.now, this.now.plusMillis(7)).get(10, TimeUnit.SECONDS);
        assertThat(row(lost.id())).satisfies((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(row.nodeId()).isEqualTo("node-2");
            assertThat(row.finishedAt()).isEqualTo(this.now.plusMillis(7));
        });
    }

    @Test
    void aNodeWhoseAttemptWasTakenOverCannotRecordItsSuccessOnEitherAttempt() throws Exception {
        ExecutionRecord orphan = claimOn("node-1", "remind:orphan");
        // node-2 finds node-1 dead and takes over: node-1's attempt fails, a recovery runs on node-2
        ExecutionRecord recovery = orphan.next(ExecutionOrigin.RECOVERY, "node-2", this.now, this.now, "recovery");
        assertThat(this.store.rescues().rescue(orphan, this.now, "node node-1 died while running it", recovery, null))
                .isTrue();
        ExecutionRecord rerun = claimOn("node-2", "remind:orphan");
        assertThat(rerun.attempt()).isEqualTo(2);

        assertLost(this.store.outcomes().succeed(orphan, this.now, this.now.plusMillis(5)));
        assertThat(row(orphan.id()).status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(row(rerun.id())).satisfies((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.RUNNING);
            assertThat(row.nodeId()).isEqualTo("node-2");
        });
    }

    /** Inserts a waiting one-off attempt, due now, and claims it for a node as the queue does. */
    private ExecutionRecord claimOn(String node, String key) {
        if (this.store.repository().findByIdempotencyKey(key).isEmpty()) {
            this.store
                    .inserts()
                    .insertAll(List.of(ExecutionRecord.waiting(
                            "remind",
                            this.now,
                            1,
                            key,
                            ExecutionOrigin.ONE_OFF,
                            "client",
                            this.now,
                            this.now,
                            null,
                            null)));
        }
        List<ExecutionRecord> claimed =
                this.store.claims().claimDue(node, this.now.plus(Duration.ofSeconds(1)), 10, JOBS);
        assertThat(claimed).as("attempts of %s claimed by %s", key, node).singleElement();
        assertThat(claimed.get(0).idempotencyKey()).isEqualTo(key);
        return claimed.get(0);
    }

    private ExecutionRecord row(long id) {
        return this.store.repository().findById(id).orElseThrow();
    }

    private static void assertLost(CompletableFuture<Void> written) {
        assertThatThrownBy(() -> written.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(LostClaimException.class);
    }
}
