package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
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
    void aWindowAheadOfThisNodesClockCountsAsTheCurrentOneAndTheRowsWindowNeverGoesBack() {
        quota(10, Duration.ofSeconds(1));
        // a node whose clock is a minute ahead uses its window
        assertThat(claim(T.plusSeconds(60), 100)).hasSize(10);
        assertThat(claim(T, 100))
                .as("the window ahead counts as the current one here")
                .isEmpty();
        assertThat(claim(T.plusMillis(60_500), 100))
                .as("nor did this node's claim take it back")
                .isEmpty();
        assertThat(claim(T.plusSeconds(61), 100)).hasSize(10);
    }

    @Test
    void theClaimsOfANodeWhoseClockIsBehindTheWindowCountedAreStampedInIt() {
        quota(10, Duration.ofSeconds(1));
        // a node 200 ms ahead of this one claims 5 in the second window
        assertThat(claim(T.plusMillis(1_100), 5)).hasSize(5);
        // this node, in the first window by its clock, claims the second window's other 5, and
        // stamps them in it, as the history then tells: the claims of each window are its quota
        assertThat(claim(T.plusMillis(900), 100)).hasSize(5).allSatisfy((claimed) -> assertThat(claimed.startedAt())
                .isEqualTo(T.plusMillis(1_100)));
        assertThat(claim(T.plusMillis(1_200), 100)).isEmpty();
    }

    @Test
    void aQuotaGivenAnotherPeriodByANodesDeclarationCountsItsWindowsAnew() {
        TargetLimits hourly = TargetLimits.ofRow(0, null, new TargetLimits.PerPeriod(20, Duration.ofHours(1)), null);
        TargetLimits daily = TargetLimits.ofRow(0, null, new TargetLimits.PerPeriod(15, Duration.ofDays(1)), null);
        assertThat(claim(T.plusSeconds(10), 100, hourly)).hasSize(20);
        assertThat(claim(T.plusSeconds(20), 100, hourly)).isEmpty();
        // a node of a newer deployment writes its declaration as it first claims
        assertThat(claim(T.plusSeconds(30), 100, daily)).hasSize(15);
        assertThat(this.store.limits().uses(T.plusSeconds(40)))
                .singleElement()
                .satisfies((use) -> assertThat(use.quotaUsed()).isEqualTo(15));
    }

    @Test
    void theRuleOfAnAdaptiveLimitIsTheRowsAndANodeThatDeclaresNoneTakesTheAdaptedLimitBack() {
        TargetLimits adaptive = new TargetLimits(
                4, null, null, null, new TargetLimits.Adaptive(0.5, Duration.ofHours(1), 1, 1), false, null);
        TargetLimits fixed = TargetLimits.ofRow(4, null, null, null);
        assertThat(claim(T.plusSeconds(10), 100, adaptive)).hasSize(4);
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        succeedRunning(sql);
        // lowered by the failures the adaptive nodes saw
        sql.update("UPDATE dsched_limit SET adaptive_max = 1");
        assertThat(claim(T.plusSeconds(20), 100, adaptive)).hasSize(1);
        succeedRunning(sql);
        assertThat(sql.queryForObject("SELECT adaptive_ratio FROM dsched_limit", Double.class))
                .isEqualTo(0.5);

        // a node that declares no rule writes its declaration: the limit in force again, for every node
        assertThat(claim(T.plusSeconds(30), 100, fixed)).hasSize(4);
        succeedRunning(sql);
        assertThat(sql.queryForMap("SELECT adaptive_max, adaptive_ratio FROM dsched_limit"))
                .containsValues(0, 0.0);
    }

    @Test
    void whileAnAdminsLimitsHoldTheNodesStillWriteTheirRuleAndOneWithoutTakesTheAdaptedLimitBack() {
        // set at run time, which no node's declaration of its limits overwrites
        this.store.limits().set(NAME, TargetLimits.ofRow(4, null, null, null), "test", T);
        TargetLimits adaptive = new TargetLimits(
                4, null, null, null, new TargetLimits.Adaptive(0.5, Duration.ofHours(1), 1, 1), false, null);
        assertThat(claim(T.plusSeconds(10), 100, adaptive)).hasSize(4);
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        succeedRunning(sql);
        sql.update("UPDATE dsched_limit SET adaptive_max = 1");
        assertThat(claim(T.plusSeconds(20), 100, adaptive))
                .as("adapted by the rule it wrote")
                .hasSize(1);
        succeedRunning(sql);

        // a node of a deployment without @Adaptive
        ExecutionStore newer = AbstractSchemaScriptTests.store(
                new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource)));
        TargetLimits fixed = TargetLimits.ofRow(4, null, null, null);
        assertThat(newer.claims().claimDue("node-2", () -> T.plusSeconds(30), 100, NAME, fixed, this.outcomes))
                .hasSize(4);
        assertThat(sql.queryForMap("SELECT adaptive_max, adaptive_ratio, set_by FROM dsched_limit"))
                .containsValues(0, 0.0, "test");
    }

    @Test
    void aNodeThatDeclaresNoRuleAdaptsByTheRuleTheRowHoldsOnceAnotherNodeWroteItLast() {
        TargetLimits adaptive = new TargetLimits(
                4, null, null, null, new TargetLimits.Adaptive(0.5, Duration.ofHours(1), 1, 1), false, null);
        TargetLimits fixed = TargetLimits.ofRow(4, null, null, null);
        // two nodes of two deployments, each writing its declaration once: the adaptive one last
        ExecutionStore older = AbstractSchemaScriptTests.store(
                new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource)));
        assertThat(older.claims().claimDue("node-2", () -> T.plusSeconds(5), 1, NAME, fixed, this.outcomes))
                .hasSize(1);
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        succeedRunning(sql);
        assertThat(claim(T.plusSeconds(10), 100, adaptive)).hasSize(4);
        succeedRunning(sql);
        sql.update("UPDATE dsched_limit SET adaptive_max = 1");

        // the older node claims by the adapted limit, and leaves it be
        assertThat(older.claims().claimDue("node-2", () -> T.plusSeconds(20), 100, NAME, fixed, this.outcomes))
                .hasSize(1);
        assertThat(sql.queryForObject("SELECT adaptive_max FROM dsched_limit", Integer.class))
                .isEqualTo(1);
    }

    private static void succeedRunning(JdbcTemplate sql) {
        sql.update(
                "UPDATE dsched_execution SET status = 'SUCCEEDED', finished_at = started_at WHERE status = 'RUNNING'");
    }

    @Test
    void aRateOfEachKeyGivesEachKeyABucketOfItsOwnRefilledOverItsPeriod() {
        String keyed = "keyed";
        List<ExecutionRecord> waiting = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < ((k < 3) ? 10 : 4); i++) {
                waiting.add(ExecutionRecord.waiting(
                                keyed,
                                T,
                                1,
                                keyed + k + ":" + i,
                                ExecutionOrigin.ONE_OFF,
                                "client",
                                T,
                                T.minusSeconds(60),
                                null,
                                null)
                        .queued(0, "tenant-" + k));
            }
        }
        this.store.inserts().insertAll(waiting);
        TargetLimits.PerPeriod fourAnHour = new TargetLimits.PerPeriod(4, Duration.ofHours(1));
        this.store.limits().set(keyed, TargetLimits.ofRow(0, null, null, fourAnHour), "test", T);
        TargetLimits declared = new TargetLimits(0, null, null, fourAnHour, null, true, null);

        List<ExecutionRecord> first = claim(keyed, T.plusSeconds(10), 100, declared);
        assertThat(first).hasSize(16);
        assertThat(first.stream().filter((attempt) -> attempt.limitKey().equals("tenant-0")))
                .hasSize(4);
        assertThat(claim(keyed, T.plusSeconds(20), 100, declared))
                .as("each key's 4 are used")
                .isEmpty();
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_limit_key", Long.class))
                .isEqualTo(4);
        // what waits, and why
        assertThat(this.store.limits().uses(T.plusSeconds(20)))
                .filteredOn((use) -> use.name().equals(keyed))
                .singleElement()
                .satisfies((use) -> {
                    assertThat(use.waiting()).isEqualTo(18);
                    assertThat(use.waitingForToken()).isEqualTo(18);
                });
        assertThat(this.store
                        .limits()
                        .slots(keyed, "tenant-1", T.plusSeconds(20))
                        .orElseThrow()
                        .keyTokens())
                .isLessThan(1);
        ExecutionRecord waitingOfTenant1 = this.store.repository().findByJobName(keyed).stream()
                .filter((attempt) ->
                        attempt.status() == ExecutionStatus.SCHEDULED && "tenant-1".equals(attempt.limitKey()))
                .findFirst()
                .orElseThrow();
        assertThat(commands(keyed, fourAnHour, T.plusSeconds(20)).whyWaiting(waitingOfTenant1))
                .hasValue("a token of its key: the rate 4/1h of each key is used up");

        // a quarter of an hour on, one token each, refilled evenly; the row's rate of each key holds
        // for a node that declares no partitionBy too (the keys were given at submission)
        List<ExecutionRecord> quarter =
                claim(keyed, T.plusSeconds(10 + 900), 100, TargetLimits.ofRow(0, null, null, fourAnHour));
        assertThat(quarter)
                .extracting(ExecutionRecord::limitKey)
                .containsExactlyInAnyOrder("tenant-0", "tenant-1", "tenant-2");
        succeedRunning(sql);

        // an hour on, each bucket is full again: the rows of the keys with nothing left are gone
        List<ExecutionRecord> later = claim(keyed, T.plusSeconds(3630 + 900), 100, declared);
        assertThat(later).hasSize(12);
        assertThat(sql.queryForList("SELECT limit_key FROM dsched_limit_key ORDER BY limit_key", String.class))
                .containsExactly("tenant-0", "tenant-1", "tenant-2");
    }

    private LimitCommands commands(String handler, TargetLimits.PerPeriod keyRate, Instant now) {
        HandlerRegistry handlers = new HandlerRegistry();
        RetryPolicy retry = new RetryPolicy(
                1, Duration.ofSeconds(1), 1, Duration.ofSeconds(1), Duration.ZERO, List.of(), List.of());
        handlers.register(new HandlerDefinition(
                handler,
                null,
                "default",
                retry,
                null,
                "test",
                0,
                null,
                "/tenant",
                0,
                null,
                null,
                null,
                new Rate(keyRate.permits(), keyRate.period()),
                (context, payload) -> {}));
        return new LimitCommands(handlers, this.store.limits(), Clock.fixed(now, ZoneOffset.UTC));
    }

    private void quota(int permits, Duration period) {
        this.store
                .limits()
                .set(NAME, TargetLimits.ofRow(0, null, new TargetLimits.PerPeriod(permits, period), null), "test", T);
    }

    private List<ExecutionRecord> claim(Instant at, int most) {
        return claim(at, most, TargetLimits.ofRow(0, null, null, null));
    }

    private List<ExecutionRecord> claim(Instant at, int most, TargetLimits declared) {
        return claim(NAME, at, most, declared);
    }

    private List<ExecutionRecord> claim(String name, Instant at, int most, TargetLimits declared) {
        Instant now = at.truncatedTo(ChronoUnit.MILLIS);
        return this.store.claims().claimDue("node-1", () -> now, most, name, declared, this.outcomes);
    }
}
