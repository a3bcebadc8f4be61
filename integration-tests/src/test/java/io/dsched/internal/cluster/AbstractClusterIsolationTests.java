package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.Outcome;
import io.dsched.internal.cluster.IsolationJobs.Invocation;
import io.dsched.internal.cluster.IsolationJobs.Letter;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.jobs.ScheduledJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Two clusters on one database: three nodes of the default cluster ({@code dsched}) and three of
 * {@code billing}, declaring jobs of the same names, never see each other's nodes, fires, one-offs,
 * locks, recoveries, runtime jobs, dead letters or audit entries; each keeps its rows in tables of
 * its own and shows only them through its endpoint and its metrics. Both clusters run for the
 * whole class; each test uses jobs, keys and fire times of its own. Run against each database by a
 * small subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractClusterIsolationTests {

    private static final String DSCHED = "dsched";

    private static final String BILLING = "billing";

    private static final String RULE = "[a-z][a-z0-9_]{0,19}";

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(3);

    private static final Set<ExecutionStatus> ENDED = EnumSet.of(
            ExecutionStatus.SUCCEEDED,
            ExecutionStatus.FAILED,
            ExecutionStatus.TIMED_OUT,
            ExecutionStatus.DEAD_LETTERED,
            ExecutionStatus.CANCELLED,
            ExecutionStatus.SKIPPED);

    private final ExecutorService background = Executors.newCachedThreadPool();

    private TestCluster cluster;

    /** The stop of the node the suite cut off from the database, which ends in the background. */
    private CompletableFuture<Void> cutOffStopped = CompletableFuture.completedFuture(null);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeAll
    void startTwoClustersOfThreeNodesOnOneDatabase() {
        IsolationJobs.reset();
        this.cluster = TestCluster.on(kind());
        // interleaved, so that the nodes of each cluster join while those of the other run
        for (int i = 1; i <= 3; i++) {
            start(DSCHED, DSCHED + "-" + i);
            start(BILLING, BILLING + "-" + i);
        }
    }

    @AfterAll
    void stopNodesAndDropDatabase() throws Exception {
        IsolationJobs.HOLD.countDown();
        IsolationJobs.CRASH.countDown();
        // the node cut off has stopped before the next suite starts: an exception on one of its
        // threads would fail that suite's waits, which take any thread's for their own
        try {
            this.cutOffStopped.get(1, TimeUnit.MINUTES);
        } finally {
            this.background.shutdownNow();
            if (this.cluster != null) {
                this.cluster.close();
            }
        }
    }

    @Test
    void everyFireOfAJobOfTheSameNameRunsExactlyOnceInEachClusterOnANodeOfThatCluster() {
        Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        Instant to = from.plusSeconds(8);
        List<Instant> seconds = seconds(from, to);

        await("every fire of tick in the window ended in each cluster's history")
                .atMost(Duration.ofSeconds(30))
                .until(() -> List.of(DSCHED, BILLING).stream()
                        .allMatch((name) ->
                                ended(history(name).findByJobNameBetween("tick", from, to)) >= seconds.size()));

        for (String name : List.of(DSCHED, BILLING)) {
            assertThat(runsByFire(name, "tick", from, to))
                    .as("runs of each fire of tick in %s", name)
                    .isEqualTo(once(seconds));
            List<ExecutionRecord> window = history(name).findByJobNameBetween("tick", from, to);
            assertThat(window)
                    .as("the fires of tick in %s's history", name)
                    .extracting(ExecutionRecord::scheduledAt, ExecutionRecord::attempt, ExecutionRecord::status)
                    .containsExactlyElementsOf(seconds.stream()
                            .map((second) -> tuple(second, 1, ExecutionStatus.SUCCEEDED))
                            .toList());
            assertThat(window)
                    .as("the nodes that ran the fires of tick in %s's history", name)
                    .extracting(ExecutionRecord::nodeId)
                    .isSubsetOf(ids(name));
        }
    }

    @Test
    void aOneOffRunsOnlyInTheClusterThatSubmittedItAndTheSameKeyRunsOnceInEach() {
        List<String> dschedRefs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            dschedRefs.add("notice-" + i);
        }
        dschedRefs.addAll(List.of("invoice-42", "receipt-7"));
        Map<String, List<String>> refs = Map.of(DSCHED, dschedRefs, BILLING, List.of("invoice-42", "receipt-7"));
        Map<String, Map<String, ScheduledJob>> first = new LinkedHashMap<>();
        Map<String, List<ScheduledJob>> again = new LinkedHashMap<>();
        for (String name : List.of(DSCHED, BILLING)) {
            Map<String, ScheduledJob> submitted = new LinkedHashMap<>();
            for (int i = 0; i < refs.get(name).size(); i++) {
                String ref = refs.get(name).get(i);
                submitted.put(ref, scheduler(name, i % 3).submit(mail(name, ref)));
            }
            first.put(name, submitted);
            // the same keys once more in each cluster, on other nodes: nothing new scheduled
            again.put(
                    name,
                    List.of(
                            scheduler(name, 2).submit(mail(name, "invoice-42")),
                            scheduler(name, 0).submit(mail(name, "receipt-7"))));
        }

        await("every one-off submitted ended in the history of the cluster that submitted it")
                .atMost(Duration.ofSeconds(20))
                .until(() -> first.entrySet().stream().allMatch((submitted) -> submitted.getValue().values().stream()
                        .allMatch((job) -> history(submitted.getKey())
                                .findById(job.executionId())
                                .filter((row) -> ENDED.contains(row.status()))
                                .isPresent())));

        for (String name : List.of(DSCHED, BILLING)) {
            assertThat(letters(name))
                    .as("the letters the nodes of %s ran, by the cluster that sent them", name)
                    .containsExactlyInAnyOrderElementsOf(refs.get(name).stream()
                            .map((ref) -> name + ":" + ref)
                            .toList());
            List<ExecutionRecord> mails = history(name).findByJobName("mail");
            assertThat(mails)
                    .as("the one-offs in %s's history", name)
                    .extracting(ExecutionRecord::idempotencyKey, ExecutionRecord::status)
                    .containsExactlyInAnyOrderElementsOf(refs.get(name).stream()
                            .map((ref) -> tuple("mail:" + ref, ExecutionStatus.SUCCEEDED))
                            .toList());
            assertThat(mails).extracting(ExecutionRecord::nodeId).isSubsetOf(ids(name));
            assertThat(first.get(name).values())
                    .as("the first submissions in %s", name)
                    .extracting(ScheduledJob::created)
                    .containsOnly(true);
            assertThat(again.get(name))
                    .as("the second submissions in %s", name)
                    .extracting(ScheduledJob::created, ScheduledJob::executionId)
                    .containsExactly(
                            tuple(false, first.get(name).get("invoice-42").executionId()),
                            tuple(false, first.get(name).get("receipt-7").executionId()));
        }
    }

    @Test
    void aJobHoldingItsLockInOneClusterDoesNotHoldBackTheJobOfTheSameNameInTheOther() throws Exception {
        IsolationJobs.HOLD = new CountDownLatch(1);
        ClusterNode holder = node(DSCHED, 0);
        CompletableFuture<Outcome> held = CompletableFuture.supplyAsync(
                () -> holder.bean(FireExecutor.class).fire("hold", IsolationJobs.HOLD_AT), this.background);
        try {
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !IsolationJobs.invocations(DSCHED, "hold").isEmpty());
            Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
            Instant to = from.plusSeconds(4);
            List<Instant> seconds = seconds(from, to);

            // billing's hold fires every second; dsched's run holds dsched's lock of hold meanwhile
            await().atMost(Duration.ofSeconds(20))
                    .untilAsserted(() -> assertThat(history(BILLING).findByJobNameBetween("hold", from, to))
                            .as("the fires of hold in billing while a run in dsched holds its lock")
                            .extracting(ExecutionRecord::scheduledAt, ExecutionRecord::status)
                            .containsExactlyElementsOf(seconds.stream()
                                    .map((second) -> tuple(second, ExecutionStatus.SUCCEEDED))
                                    .toList()));

            assertThat(runsByFire(BILLING, "hold", from, to))
                    .as("runs of each fire of hold in billing")
                    .isEqualTo(once(seconds));
            assertThat(history(BILLING).findByJobNameBetween("hold", from, to))
                    .extracting(ExecutionRecord::nodeId)
                    .isSubsetOf(ids(BILLING));
            assertThat(held).isNotDone();
            assertThat(history(DSCHED).findByJobName("hold")).singleElement().satisfies((run) -> {
                assertThat(run.scheduledAt()).isEqualTo(IsolationJobs.HOLD_AT);
                assertThat(run.status()).isEqualTo(ExecutionStatus.RUNNING);
                assertThat(run.nodeId()).isEqualTo(holder.id());
            });
            assertThat(sql().queryForList(
                                    "SELECT locked_by FROM dsched_lock WHERE name = 'hold' AND lock_until > "
                                            + this.cluster.platform().dialect().lockClockSql(),
                                    String.class))
                    .as("holders of dsched's lock of hold")
                    .containsExactly(holder.id());
            assertThat(IsolationJobs.invocations(DSCHED, "hold"))
                    .extracting(Invocation::scheduledAt)
                    .containsExactly(IsolationJobs.HOLD_AT);
        } finally {
            IsolationJobs.HOLD.countDown();
        }
        assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCEEDED);
    }

    @Test
    void aNodeThatDiesMidRunIsTakenOverByItsOwnClusterOnlyAndTheOtherClusterNeverListsIt() throws Exception {
        IsolationJobs.CRASH = new CountDownLatch(1);
        ClusterNode dying = start(BILLING, BILLING + "-4");
        try {
            CompletableFuture.runAsync(
                    () -> dying.bean(FireExecutor.class).fire("crash", IsolationJobs.CRASH_AT), this.background);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !IsolationJobs.invocations(BILLING, "crash").isEmpty());
            List<String> billingWhileAlive = views(BILLING).nodes(true);
            List<String> dschedWhileAlive = views(DSCHED).nodes(false);

            dying.cutOff();
            await("the attempt of the dead node taken over and run again")
                    .atMost(NODE_TIMEOUT.multipliedBy(5))
                    .until(() -> history(BILLING).findByJobName("crash").stream()
                            .anyMatch((run) -> run.attempt() == 2 && ENDED.contains(run.status())));

            List<ExecutionRecord> attempts = history(BILLING).findByJobName("crash").stream()
                    .sorted(Comparator.comparingInt(ExecutionRecord::attempt))
                    .toList();
            assertThat(attempts).hasSize(2);
            assertThat(attempts.get(0)).satisfies((lost) -> {
                assertThat(lost.nodeId()).isEqualTo(dying.id());
                assertThat(lost.status()).isEqualTo(ExecutionStatus.FAILED);
                assertThat(lost.errorClass()).isEqualTo(ExecutionStore.NodeLostException.class.getName());
                assertThat(lost.statusReason()).contains(dying.id());
            });
            assertThat(attempts.get(1)).satisfies((recovery) -> {
                assertThat(recovery.origin()).isEqualTo(ExecutionOrigin.RECOVERY);
                assertThat(recovery.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
                assertThat(recovery.nodeId())
                        .as("the node that took over the attempt")
                        .isIn(first3(BILLING));
            });
            assertThat(IsolationJobs.invocations(DSCHED, "crash"))
                    .as("runs of crash in dsched")
                    .isEmpty();
            assertThat(IsolationJobs.invocations(BILLING, "crash"))
                    .extracting(Invocation::node, Invocation::attempt)
                    .containsExactly(tuple(dying.id(), 1), tuple(attempts.get(1).nodeId(), 2));
            assertThat(history(DSCHED).findByJobName("crash")).isEmpty();
            assertThat(sql().queryForObject(
                                    "SELECT COUNT(*) FROM dsched_execution WHERE origin = 'RECOVERY'", Long.class))
                    .as("recoveries in dsched, which lost no node")
                    .isZero();
            assertThat(sql().queryForList("SELECT locked_by FROM dsched_lock WHERE name = 'crash'", String.class))
                    .as("dsched's lock of crash")
                    .isEmpty();
            assertThat(views(BILLING).items("dead-letters"))
                    .extracting((letter) -> letter.path("jobName").asString())
                    .doesNotContain("crash");
            assertThat(billingWhileAlive)
                    .as("billing's live nodes before one died")
                    .contains(dying.id());
            assertThat(dschedWhileAlive)
                    .as("dsched's nodes while a node of billing ran")
                    .containsExactlyInAnyOrderElementsOf(first3(DSCHED));
            assertThat(views(DSCHED).nodes(false))
                    .as("dsched's nodes after a node of billing died")
                    .containsExactlyInAnyOrderElementsOf(first3(DSCHED));
            assertThat(sql().queryForList("SELECT node_id FROM dsched_node", String.class))
                    .containsExactlyInAnyOrderElementsOf(first3(DSCHED));
        } finally {
            // what is left of it stops in the background: with an outcome it cannot write, its
            // outcome writer holds its stop up for half a minute
            this.cutOffStopped = CompletableFuture.runAsync(dying::close, this.background);
        }
    }

    @Test
    void eachClustersEndpointAndMetricsShowItsOwnNodesJobsExecutionsDeadLettersAndAuditOnly() {
        EndpointViews dsched = views(DSCHED);
        EndpointViews billing = views(BILLING);
        // on another node than the one whose views are read: listed there once that node reads
        // the runtime jobs again; recurring(...) below reads them afresh
        scheduler(BILLING, 1)
                .create(RecurringJob.of("statements", "statement", new Schedule.Cron(IsolationJobs.NEVER, null), null));
        billing.act("doomed", "trigger");
        dsched.act("quiet", "trigger");

        await("the runs triggered through the endpoints ended")
                .atMost(Duration.ofSeconds(20))
                .until(() -> ranInEither("doomed") == 1
                        && ranInEither("quiet") == 1
                        && dsched.items("dead-letters").size()
                                        + billing.items("dead-letters").size()
                                > 0
                        && history(DSCHED).findByJobName("quiet").stream()
                                .allMatch((run) -> ENDED.contains(run.status()))
                        && jobNames(billing).contains("statements"));

        // nodes
        assertThat(dsched.nodes(false)).containsExactlyInAnyOrderElementsOf(first3(DSCHED));
        assertThat(billing.nodes(false)).isSubsetOf(ids(BILLING));
        assertThat(billing.nodes(true)).containsExactlyInAnyOrderElementsOf(first3(BILLING));
        // jobs: declared alike, the runtime job in billing only
        List<String> dschedJobs = jobNames(dsched);
        assertThat(dschedJobs)
                .contains("tick", "hold", "crash", "doomed", "quiet")
                .doesNotContain("statements");
        List<String> billingJobs = new ArrayList<>(dschedJobs);
        billingJobs.add("statements");
        assertThat(jobNames(billing)).containsExactlyInAnyOrderElementsOf(billingJobs);
        assertThat(scheduler(DSCHED, 0).recurring("statements")).isEmpty();
        assertThat(scheduler(BILLING, 0).recurring("statements")).isPresent();
        // executions
        assertThat(dsched.items("executions"))
                .extracting((run) -> run.path("nodeId").asString())
                .isNotEmpty()
                .isSubsetOf(ids(DSCHED));
        assertThat(billing.items("executions"))
                .extracting((run) -> run.path("nodeId").asString())
                .isNotEmpty()
                .isSubsetOf(ids(BILLING));
        // dead letters
        assertThat(dsched.items("dead-letters")).as("dsched's dead letters").isEmpty();
        assertThat(dsched.overview().path("deadLetterBacklog").asLong()).isZero();
        List<JsonNode> letters = billing.items("dead-letters");
        assertThat(letters).as("billing's dead letters").singleElement().satisfies((letter) -> {
            assertThat(letter.path("jobName").asString()).isEqualTo("doomed");
            assertThat(letter.path("nodeId").asString()).isIn(ids(BILLING));
        });
        assertThat(billing.overview().path("deadLetterBacklog").asLong()).isEqualTo(1);
        String letterId = letters.get(0).path("id").asString();
        assertThat(billing.status("dead-letters", letterId)).isEqualTo(200);
        assertThat(dsched.status("dead-letters", letterId)).isEqualTo(404);
        // audit
        assertThat(dsched.items("audit"))
                .extracting(
                        (entry) -> entry.path("action").asString(),
                        (entry) -> entry.path("target").asString(),
                        (entry) -> entry.path("nodeId").asString())
                .containsExactly(tuple("job.trigger", "quiet", node(DSCHED, 0).id()));
        assertThat(billing.items("audit"))
                .extracting(
                        (entry) -> entry.path("action").asString(),
                        (entry) -> entry.path("target").asString(),
                        (entry) -> entry.path("nodeId").asString())
                .containsExactly(tuple("job.trigger", "doomed", node(BILLING, 0).id()));
        // metrics
        assertThat(gauge(DSCHED, "dsched.cluster.nodes")).isEqualTo(3);
        assertThat(gauge(BILLING, "dsched.cluster.nodes")).isEqualTo(3);
        assertThat(gauge(DSCHED, "dsched.dead.letters.backlog")).isZero();
        assertThat(gauge(BILLING, "dsched.dead.letters.backlog")).isEqualTo(1);
        // and where the triggered runs ran
        assertThat(IsolationJobs.invocations(BILLING, "doomed")).hasSize(1);
        assertThat(IsolationJobs.invocations(DSCHED, "quiet")).hasSize(1);
    }

    @Test
    void eachClusterKeepsItsRowsInTablesOfItsOwnAndSharesOnlyQuartzsTablesKeyedByItsName() throws Exception {
        TableLayout tables = TableLayout.read(this.cluster.observer());

        assertThat(tables.of(DSCHED))
                .containsKeys(
                        "dsched_execution",
                        "dsched_node",
                        "dsched_lock",
                        "dsched_job",
                        "dsched_job_definition",
                        "dsched_dead_letter",
                        "dsched_audit",
                        "dsched_unique_key");
        assertThat(tables.of(BILLING))
                .as("billing's tables, by their names in the default cluster")
                .isEqualTo(tables.of(DSCHED));
        for (String name : List.of(DSCHED, BILLING)) {
            String prefix = DSCHED.equals(name) ? "" : name + "_";
            assertThat(column("SELECT node_id FROM " + prefix + "dsched_node"))
                    .as("the nodes in %sdsched_node", prefix)
                    .isSubsetOf(ids(name))
                    .containsAll(first3(name));
            assertThat(column("SELECT DISTINCT node_id FROM " + prefix + "dsched_execution"))
                    .as("the nodes in %sdsched_execution", prefix)
                    .isNotEmpty()
                    .isSubsetOf(ids(name));
            assertThat(column("SELECT DISTINCT locked_by FROM " + prefix + "dsched_lock"))
                    .as("the nodes in %sdsched_lock", prefix)
                    .isNotEmpty()
                    .isSubsetOf(ids(name));
            assertThat(column("SELECT DISTINCT INSTANCE_NAME FROM DSCHED_QRTZ_SCHEDULER_STATE WHERE SCHED_NAME = '"
                            + name + "'"))
                    .as("the Quartz instances of %s", name)
                    .isSubsetOf(ids(name))
                    .containsAll(first3(name));
        }
        assertThat(column("SELECT SCHED_NAME FROM DSCHED_QRTZ_TRIGGERS WHERE TRIGGER_NAME = 'tick'"))
                .contains(DSCHED, BILLING);
    }

    @Test
    void aClusterNameOfTwentyCharactersGetsTablesOfItsOwnAndSeesOnlyItsOwnWork() throws Exception {
        String longest = "payments_eu_west_two";
        Instant fire = Instant.parse("2032-01-01T00:00:00Z");
        try (ClusterNode node = ClusterNode.start(
                this.cluster.database(), longest + "-1", IsolationJobs.class, properties(longest, false))) {
            TableLayout tables = TableLayout.read(this.cluster.observer());
            assertThat(tables.of(longest)).isEqualTo(tables.of(DSCHED));

            assertThat(node.bean(FireExecutor.class).fire("quiet", fire)).isEqualTo(Outcome.SUCCEEDED);
            assertThat(node.bean(ExecutionRepository.class).findByJobName("quiet"))
                    .extracting(ExecutionRecord::scheduledAt, ExecutionRecord::nodeId)
                    .containsExactly(tuple(fire, node.id()));
            assertThat(new EndpointViews(node).nodes(false)).containsExactly(node.id());
        }
    }

    @Test
    void aClusterNameThatBreaksTheRuleFailsStartUpWithAMessageNamingTheRule() {
        List<String> broken = List.of("Billing", "9billing", "billing-eu", "billing eu", "abcdefghijklmnopqrstu");
        for (int i = 0; i < broken.size(); i++) {
            String name = broken.get(i);
            String id = "broken-" + i;
            assertThatThrownBy(() -> {
                        // a node that starts all the same is stopped at once
                        ClusterNode.start(this.cluster.database(), id, IsolationJobs.class, properties(name, false))
                                .close();
                    })
                    .as("the start of a node of cluster '%s'", name)
                    .satisfies((failure) -> assertThat(messages(failure))
                            .contains("dsched.cluster.name")
                            .contains(name)
                            .contains(RULE));
        }
    }

    @Test
    void theLockNamesAnApplicationsOwnLockProviderIsHandedStartWithTheNameOfItsCluster() {
        WithOwnLockProvider.NAMES.clear();
        try (ClusterNode node = ClusterNode.start(
                this.cluster.database(), "ledger-1", WithOwnLockProvider.class, properties("ledger", false))) {
            assertThat(node.bean(FireExecutor.class).fire("quiet", Instant.parse("2033-01-01T00:00:00Z")))
                    .isEqualTo(Outcome.SUCCEEDED);
        }
        assertThat(WithOwnLockProvider.NAMES).containsExactly("ledger.quiet");
    }

    /** A letter about {@code ref}, keyed by it; a receipt's key is held for an hour. */
    private static OneOff mail(String cluster, String ref) {
        OneOff letter = OneOff.of("mail", new Letter(cluster, ref)).withKey(ref);
        return ref.startsWith("receipt") ? letter.uniqueFor(Duration.ofHours(1)) : letter;
    }

    private static List<String> letters(String cluster) {
        return IsolationJobs.invocations(cluster, "mail").stream()
                .map((run) -> run.from() + ":" + run.ref())
                .toList();
    }

    private static long ranInEither(String job) {
        return IsolationJobs.invocations(DSCHED, job).size()
                + IsolationJobs.invocations(BILLING, job).size();
    }

    /** How many times each fire of a job in a window ran in a cluster, by fire time. */
    private static Map<Instant, Long> runsByFire(String cluster, String job, Instant from, Instant to) {
        return IsolationJobs.invocations(cluster, job).stream()
                .filter((run) ->
                        !run.scheduledAt().isBefore(from) && run.scheduledAt().isBefore(to))
                .collect(Collectors.groupingBy(Invocation::scheduledAt, TreeMap::new, Collectors.counting()));
    }

    private static Map<Instant, Long> once(List<Instant> fires) {
        Map<Instant, Long> once = new TreeMap<>();
        fires.forEach((fire) -> once.put(fire, 1L));
        return once;
    }

    private static List<Instant> seconds(Instant from, Instant to) {
        List<Instant> seconds = new ArrayList<>();
        for (Instant second = from; second.isBefore(to); second = second.plusSeconds(1)) {
            seconds.add(second);
        }
        return seconds;
    }

    private static long ended(List<ExecutionRecord> runs) {
        return runs.stream().filter((run) -> ENDED.contains(run.status())).count();
    }

    private static List<String> jobNames(EndpointViews views) {
        return views.items("jobs").stream()
                .map((job) -> job.path("name").asString())
                .toList();
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.add(String.valueOf(cause.getMessage()));
        }
        return String.join(" <- ", messages);
    }

    private double gauge(String cluster, String name) {
        return node(cluster, 0).bean(MeterRegistry.class).get(name).gauge().value();
    }

    private List<String> column(String query) {
        return sql().queryForList(query, String.class);
    }

    private JdbcTemplate sql() {
        return new JdbcTemplate(this.cluster.observer());
    }

    /** The ids of every node started in a cluster, stopped or not. */
    private Set<String> ids(String cluster) {
        return this.cluster.nodes().stream()
                .map(ClusterNode::id)
                .filter((id) -> id.startsWith(cluster + "-"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The ids of the three nodes of a cluster that run for the whole class. */
    private static List<String> first3(String cluster) {
        return List.of(cluster + "-1", cluster + "-2", cluster + "-3");
    }

    private ClusterNode node(String cluster, int index) {
        String id = first3(cluster).get(index);
        return this.cluster.nodes().stream()
                .filter((node) -> node.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private JobScheduler scheduler(String cluster, int index) {
        return node(cluster, index).bean(JobScheduler.class);
    }

    /** A cluster's execution history, as its nodes read it. */
    private ExecutionRepository history(String cluster) {
        return node(cluster, 0).bean(ExecutionRepository.class);
    }

    private EndpointViews views(String cluster) {
        return new EndpointViews(node(cluster, 0));
    }

    private ClusterNode start(String cluster, String id) {
        return this.cluster.start(id, IsolationJobs.class, properties(cluster, true));
    }

    private static Map<String, Object> properties(String cluster, boolean ticking) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("dsched.cluster.name", cluster);
        properties.put("dsched.queue.poll-interval", "100ms");
        properties.put("dsched.recovery.heartbeat-interval", "250ms");
        properties.put("dsched.recovery.node-timeout", NODE_TIMEOUT.toMillis() + "ms");
        properties.put("dsched.history.cleanup-cron", IsolationJobs.NEVER);
        properties.put("dsched.metrics.refresh", "0s");
        // nodes stop without waiting long for running jobs, such as one still held by the test
        properties.put("dsched.shutdown.timeout", "2s");
        properties.put("management.endpoints.web.exposure.include", "dsched");
        if (ticking) {
            properties.put("test.tick.cron", IsolationJobs.EVERY_SECOND);
            // the same job in both clusters, firing in billing only
            properties.put(
                    "test.hold.cron", BILLING.equals(cluster) ? IsolationJobs.EVERY_SECOND : IsolationJobs.NEVER);
        }
        return properties;
    }

    /** The application with a lock provider of its own, which records the names of the locks it is asked for. */
    @Configuration(proxyBeanMethods = false)
    @Import(IsolationJobs.class)
    static class WithOwnLockProvider {

        static final List<String> NAMES = new CopyOnWriteArrayList<>();

        @Bean
        LockProvider dschedLockProvider() {
            return (LockConfiguration lock) -> {
                NAMES.add(lock.getName());
                SimpleLock held = () -> {};
                return Optional.of(held);
            };
        }
    }
}
