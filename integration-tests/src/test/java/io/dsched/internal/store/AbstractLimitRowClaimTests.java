package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The row of a target's limits as the claims read and move it: a quota given another period counts
 * its windows anew, a window a node with a clock far ahead wrote does not hold up the others, and an
 * adapted limit left in the row is taken back by a node that declares no adaptation.
 */
abstract class AbstractLimitRowClaimTests {

    private static final String NAME = "push";

    /** The start of an hour, and of a day, so that the windows the test counts are known. */
    private static final Instant T = Instant.parse("2026-12-07T00:00:00Z");

    private final LimitOutcomes outcomes = new LimitOutcomes((name) -> false, List.of());

    private TestDatabase database;

    private HikariDataSource dataSource;

    private ExecutionStore store;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void createDatabase() {
        this.database = TestDatabases.create(kind());
        this.dataSource = this.database.newDataSource();
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        this.store = AbstractSchemaScriptTests.store(jdbc);
        List<ExecutionRecord> waiting = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            waiting.add(ExecutionRecord.waiting(
                    NAME, T, 1, NAME + ":" + i, ExecutionOrigin.ONE_OFF, "client", T, T.minusSeconds(60), null, null));
        }
        this.store.inserts().insertAll(waiting);
    }

    @AfterEach
    void dropDatabase() {
        if (this.dataSource != null) {
            this.dataSource.close();
        }
        if (this.database != null) {
            this.database.close();
        }
    }

    @Test
    void aQuotaGivenAnotherPeriodCountsItsWindowsAnew() {
        quota(20, Duration.ofHours(1));
        assertThat(claim(T.plusSeconds(10), 100)).hasSize(20);
        assertThat(claim(T.plusSeconds(20), 100)).as("the hour's 20 are used").isEmpty();

        // a day's window has a lower number than an hour's: the hour's count is not the day's
        quota(15, Duration.ofDays(1));
        assertThat(this.store.limits().uses(T.plusSeconds(30))).singleElement().satisfies((use) -> assertThat(
                        use.quotaUsed())
                .as("used in the day's window")
                .isZero());
        assertThat(claim(T.plusSeconds(30), 100)).hasSize(15);
        assertThat(claim(T.plusSeconds(40), 100)).isEmpty();
    }

    @Test
    void aWindowFarAheadOfThisNodesClockIsCountedFromThisNodesAndOneJustAheadAsTheCurrentOne() {
        quota(10, Duration.ofSeconds(1));
        // a node whose clock is a minute ahead uses its window
        assertThat(claim(T.plusSeconds(60), 100)).hasSize(10);
        assertThat(claim(T, 100))
                .as("a window a minute ahead does not hold this node up")
                .hasSize(10);
        // a node whose clock is a second ahead uses the next window, which counts as the current one here
        assertThat(claim(T.plusMillis(1100), 100)).hasSize(10);
        assertThat(claim(T.plusMillis(500), 100)).isEmpty();
    }

    @Test
    void anAdaptedLimitLeftInTheRowIsTakenBackByANodeThatDeclaresNoAdaptation() {
        // set at run time, which no node's declaration overwrites
        this.store.limits().set(NAME, TargetLimits.ofRow(4, null, null), "test", T);
        TargetLimits adaptive =
                new TargetLimits(4, null, null, new TargetLimits.Adaptive(0.5, Duration.ofHours(1), 1, 1), false, null);
        assertThat(claim(T.plusSeconds(10), 100, adaptive)).hasSize(4);
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        sql.update(
                "UPDATE dsched_execution SET status = 'SUCCEEDED', finished_at = started_at WHERE status = 'RUNNING'");
        // lowered by the failures the adaptive nodes saw
        sql.update("UPDATE dsched_limit SET adaptive_max = 1");
        assertThat(claim(T.plusSeconds(20), 100, adaptive)).hasSize(1);
        sql.update(
                "UPDATE dsched_execution SET status = 'SUCCEEDED', finished_at = started_at WHERE status = 'RUNNING'");

        assertThat(claim(T.plusSeconds(30), 100, TargetLimits.ofRow(4, null, null)))
                .as("the limit in force, no longer the adapted one")
                .hasSize(4);
        assertThat(sql.queryForObject("SELECT adaptive_max FROM dsched_limit", Integer.class))
                .isZero();
    }

    private void quota(int permits, Duration period) {
        this.store
                .limits()
                .set(NAME, TargetLimits.ofRow(0, null, new TargetLimits.PerPeriod(permits, period)), "test", T);
    }

    private List<ExecutionRecord> claim(Instant at, int most) {
        return claim(at, most, TargetLimits.ofRow(0, null, null));
    }

    private List<ExecutionRecord> claim(Instant at, int most, TargetLimits declared) {
        Instant now = at.truncatedTo(ChronoUnit.MILLIS);
        return this.store.claims().claimDue("node-1", () -> now, most, NAME, declared, this.outcomes);
    }
}
