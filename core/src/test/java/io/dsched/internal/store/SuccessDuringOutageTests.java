package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The write of a success waits out a database that cuts its connections, as PostgreSQL does to
 * every session when it is restarted: the statement fails with 57P01, and the rollback after it
 * with whatever the driver says of a closed connection, here with no SQL state at all. Spring's
 * transaction template then throws the failed rollback, with the write's own failure attached.
 */
class SuccessDuringOutageTests {

    /** How many statements fail before the database answers again. */
    private static final int CUT = 3;

    private final InMemoryStore database = new InMemoryStore();

    private final CuttingDataSource cutting = new CuttingDataSource(this.database.dataSource());

    private final ExecutionStore store = this.database.storeOver(this.cutting.dataSource());

    @AfterEach
    void close() {
        this.store.close();
        this.database.store().close();
    }

    @Test
    void aSuccessWrittenWhileTheServerCutsEveryConnectionIsWrittenOnceItAnswersAgain() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ExecutionRecord claim = this.database.executions().save(ExecutionRecord.claim("beat", now, "node-1", now));
        this.cutting.cutNext(CUT);

        CompletableFuture<Void> written = this.store.outcomes().succeed(claim, now, now.plusMillis(5), null);

        written.get(30, TimeUnit.SECONDS);
        assertThat(this.cutting.cutsLeft()).as("every cut was met").isZero();
        assertThat(this.database.executions().findById(claim.id()).orElseThrow().status())
                .isEqualTo(ExecutionStatus.SUCCEEDED);
    }
}
