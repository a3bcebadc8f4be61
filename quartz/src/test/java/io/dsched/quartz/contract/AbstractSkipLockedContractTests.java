package io.dsched.quartz.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.quartz.JobBuilder.newJob;
import static org.quartz.SimpleScheduleBuilder.simpleSchedule;
import static org.quartz.TriggerBuilder.newTrigger;

import io.dsched.quartz.SkipLockedJobStore;
import io.dsched.quartz.contract.Fires.CountingJob;
import io.dsched.quartz.contract.Fires.Fire;
import io.dsched.quartz.contract.Fires.FreeJob;
import io.dsched.quartz.contract.Fires.SerialJob;
import io.dsched.quartz.contract.TestCluster.Store;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.TriggerKey;
import org.quartz.TriggerListener;
import org.quartz.impl.calendar.CronCalendar;
import org.quartz.impl.matchers.KeyMatcher;

/**
 * What the skip-locked store adds to Quartz's contract, on each database with {@code SKIP LOCKED}
 * (one small subclass each): acquiring and firing go on while another session holds Quartz's
 * cluster-wide lock (the stock store, as the control, waits for it), and what keeps Quartz's lock
 * while fires do not (storing a trigger, the misfire handler, a calendar's change) does not miss a
 * fire that races it: each such race is made to happen by holding a fire's transaction open.
 */
abstract class AbstractSkipLockedContractTests {

    static final String PREFIX = "QS_";

    TestCluster cluster;

    private final ExecutorService background = Executors.newCachedThreadPool();

    /** Lets go whatever a failed test left held. */
    private final List<Runnable> teardown = new java.util.ArrayList<>();

    protected abstract TestDatabase.Kind kind();

    @BeforeEach
    void createCluster(TestInfo test) {
        Fires.reset();
        this.cluster = new TestCluster(
                TestDatabase.of(kind()),
                PREFIX,
                test.getTestMethod().orElseThrow().getName());
    }

    @AfterEach
    void stopNodes() {
        this.teardown.forEach(Runnable::run);
        this.background.shutdownNow();
        if (this.cluster != null) {
            this.cluster.close();
        }
    }

    @Test
    void acquisitionAndFiringGoOnWhileAnotherSessionHoldsQuartzsLock() throws Exception {
        Scheduler one = this.cluster.node("n1", Store.SKIP_LOCKED).start();
        this.cluster.node("n2", Store.SKIP_LOCKED).start();
        assertThat(one.getMetaData().getJobStoreClass()).isEqualTo(SkipLockedJobStore.class);
        List<JobDetail> jobs = List.of(
                newJob(FreeJob.class).withIdentity("free").build(),
                newJob(SerialJob.class).withIdentity("serial").build(),
                newJob(CountingJob.class)
                        .withIdentity("counting")
                        .usingJobData("count", "0")
                        .build());
        for (JobDetail job : jobs) {
            one.scheduleJob(job, java.util.Set.of(every300Millis(job, "a"), every300Millis(job, "b")), false);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> jobs.stream()
                .allMatch((job) -> !Fires.of(job.getKey()).isEmpty()));

        try (Connection holder = this.cluster.holdTriggerAccess()) {
            Instant locked = Instant.now();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> jobs.stream().allMatch((job) -> startedAfter(job.getKey(), locked) >= 3));
            holder.rollback();
        }
        for (JobDetail job : jobs) {
            assertThat(Fires.of(job.getKey()))
                    .extracting((fire) -> fire.trigger() + "@" + fire.scheduledAt())
                    .doesNotHaveDuplicates();
        }
        assertThat(Fires.mostAtOnce(jobs.get(1).getKey())).isOne();
        assertThat(Fires.mostAtOnce(jobs.get(2).getKey())).isOne();
    }

    @Test
    void theStockStoreStallsWhileAnotherSessionHoldsQuartzsLock() throws Exception {
        Scheduler one = this.cluster.node("n1", Store.STOCK).start();
        this.cluster.node("n2", Store.STOCK).start();
        JobDetail job = newJob(FreeJob.class).withIdentity("free").build();
        one.scheduleJob(job, java.util.Set.of(every300Millis(job, "a"), every300Millis(job, "b")), false);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !Fires.of(job.getKey()).isEmpty());

        try (Connection holder = this.cluster.holdTriggerAccess()) {
            // what was fired before the lock was taken may still start
            Instant settled = Instant.now().plusMillis(500);
            await().during(Duration.ofSeconds(2))
                    .atMost(Duration.ofSeconds(3))
                    .until(() -> startedAfter(job.getKey(), settled) == 0);
            holder.rollback();
        }
        Instant released = Instant.now();
        await().atMost(Duration.ofSeconds(10)).until(() -> startedAfter(job.getKey(), released) >= 2);
    }

    @Test
    void aTriggerStoredWhileAFireOfItsJobIsBeingRecordedWaitsForItAndStartsBlocked() throws Exception {
        FireGate gate = new FireGate((bundle) -> bundle.getTrigger().getKey().equals(TriggerKey.triggerKey("first")));
        Scheduler firing =
                this.cluster.node("n1", Store.SKIP_LOCKED).claims(gate).start();
        Scheduler other = this.cluster.node("n2", Store.SKIP_LOCKED).create();
        JobDetail job = newJob(SerialJob.class)
                .withIdentity("serial")
                .usingJobData("workMillis", "1500")
                .storeDurably()
                .build();
        firing.addJob(job, false);
        firing.scheduleJob(AbstractQuartzContractTests.once("first", job, new Date()));
        this.teardown.add(gate::open);
        await().atMost(Duration.ofSeconds(5)).until(gate::holding);

        Trigger added = AbstractQuartzContractTests.once("added", job, new Date());
        Future<?> storing = this.background.submit(() -> {
            other.scheduleJob(added);
            return null;
        });
        await().atMost(Duration.ofSeconds(5))
                .until(() -> storing.isDone() || this.cluster.sessionsWaitingForALock() > 0);
        gate.open();
        storing.get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(added.getKey()).size() == 1);
        assertThat(Fires.mostAtOnce(job.getKey())).as("runs at once").isOne();
    }

    @Test
    void claimsOfAFiringTransactionCutBeforeItCommitsAreToldSoAndTheFireIsClaimedAgainWhenItFiresAgain()
            throws Exception {
        SessionCut cut = new SessionCut(kind());
        ClaimEndings claims = new ClaimEndings(cut);
        Scheduler node =
                this.cluster.node("n1", Store.SKIP_LOCKED).claims(claims).start();
        JobDetail job = newJob(FreeJob.class).withIdentity("cut").build();
        node.scheduleJob(job, AbstractQuartzContractTests.once("cut", job, new Date()));
        this.teardown.add(cut::release);
        await().atMost(Duration.ofSeconds(10)).until(cut::holding);

        try (Connection other = this.cluster.database.connect()) {
            cut.cut(other);
        }
        cut.release();

        await().atMost(Duration.ofSeconds(20))
                .until(() -> Fires.of(job.getKey()).size() == 1);
        assertThat(claims.endings()).containsExactly("not committed", "committed");
    }

    @Test
    void claimsOfAFiringTransactionWhoseCommitsAnswerIsLostAreToldItCommittedOnceTheFireIsFoundRecorded()
            throws Exception {
        LosingCommits.reset();
        ClaimEndings claims = new ClaimEndings((connection) -> LosingCommits.loseNextCommitOnThisThread());
        Scheduler node = this.cluster
                .node("n1", Store.SKIP_LOCKED)
                .claims(claims)
                .losingCommits()
                .start();
        JobDetail job = newJob(FreeJob.class).withIdentity("lost").build();
        node.scheduleJob(job, AbstractQuartzContractTests.once("lost", job, new Date()));

        await().atMost(Duration.ofSeconds(20))
                .until(() -> Fires.of(job.getKey()).size() == 1);
        assertThat(LosingCommits.lost()).as("commits whose answer was lost").isOne();
        assertThat(claims.endings()).containsExactly("committed");
    }

    @Test
    void firedAheadEachFireIsRecordedAndClaimedBeforeItsTimeOnceAcrossTheNodesEachTakingItsShare() throws Exception {
        AheadClaims one = new AheadClaims();
        AheadClaims two = new AheadClaims();
        // Quartz's own pool starts a job as soon as it is handed over, dsched's at its time: held
        // runs stand for fires waiting for their time, each holding a thread and its fire's record
        this.teardown.add(Fires::unstick);
        Scheduler first = this.cluster
                .node("n1", Store.SKIP_LOCKED)
                .claims(one)
                .fireAhead(1000)
                .threads(12)
                .create();
        Scheduler second = this.cluster
                .node("n2", Store.SKIP_LOCKED)
                .claims(two)
                .fireAhead(1000)
                .threads(12)
                .create();
        Instant due = Instant.now().plusSeconds(4);
        List<JobKey> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            JobDetail job =
                    newJob(Fires.HeldSerialJob.class).withIdentity("burst-" + i).build();
            first.scheduleJob(job, AbstractQuartzContractTests.once("burst-" + i, job, Date.from(due)));
            jobs.add(job.getKey());
        }
        first.start();
        second.start();

        await().atMost(Duration.ofSeconds(15))
                .until(() -> one.claims().size() + two.claims().size() == 20);
        List<AheadClaims.Claim> claims = new java.util.ArrayList<>(one.claims());
        claims.addAll(two.claims());
        assertThat(claims).extracting(AheadClaims.Claim::trigger).doesNotHaveDuplicates();
        assertThat(claims).allSatisfy((claim) -> {
            assertThat(claim.scheduledAt()).isEqualTo(due.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
            assertThat(claim.claimedAt()).as("claimed before its time").isBefore(claim.scheduledAt());
        });
        // the node that looks first takes its share, half, and leaves the rest to the other
        assertThat(one.claims()).hasSizeLessThanOrEqualTo(10);
        assertThat(two.claims()).hasSizeLessThanOrEqualTo(10);
        Fires.unstick();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> jobs.stream().allMatch((job) -> Fires.of(job).size() == 1));
        assertThat(one.left()).isEmpty();
        assertThat(two.left()).isEmpty();
    }

    @Test
    void aFireMadeAheadThatQuartzsThreadNeverTakesIsLeftToTheApplicationAndCompletedAsTheStoreShutsDown()
            throws Exception {
        java.util.concurrent.atomic.AtomicReference<Scheduler> node =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<Thread> stopping =
                new java.util.concurrent.atomic.AtomicReference<>();
        // inside the transaction that fires ahead, on Quartz's thread: the scheduler is told to shut
        // down, and waits for that thread, which then hands out nothing more
        AheadClaims claims = new AheadClaims(() -> {
            Thread stop = new Thread(() -> {
                try {
                    node.get().shutdown(true);
                } catch (org.quartz.SchedulerException ex) {
                    throw new IllegalStateException(ex);
                }
            });
            stopping.set(stop);
            stop.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> stop.getState() == Thread.State.WAITING);
        });
        node.set(this.cluster
                .node("n1", Store.SKIP_LOCKED)
                .claims(claims)
                .fireAhead(1000)
                .create());
        Instant due = Instant.now().plusSeconds(2);
        JobDetail job = newJob(FreeJob.class).withIdentity("left").build();
        node.get().scheduleJob(job, AbstractQuartzContractTests.once("left", job, Date.from(due)));
        node.get().start();

        await().atMost(Duration.ofSeconds(10)).until(() -> stopping.get() != null);
        stopping.get().join(TimeUnit.SECONDS.toMillis(20));
        assertThat(stopping.get().isAlive()).isFalse();
        assertThat(claims.claims()).extracting(AheadClaims.Claim::trigger).containsExactly("left");
        assertThat(claims.left())
                .as("left to the application")
                .extracting(AheadClaims.Claim::trigger)
                .containsExactly("left");
        assertThat(Fires.of(job.getKey())).as("never run").isEmpty();
        // recorded complete as a run of it would be: no fire of it left, and the trigger, done, gone
        assertThat(this.cluster.count("SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ?"))
                .isZero();
        assertThat(this.cluster.state(TriggerKey.triggerKey("left"))).isNull();
    }

    @Test
    void aFireOfABatchHoldsTheRowOfEachOfItsJobsUntilItCommits() throws Exception {
        // (its triggers' rows are held by Quartz's own writes of them as well: not a test of the locks)
        FireGate gate = new FireGate((bundle) -> true);
        Scheduler firing =
                this.cluster.node("n1", Store.SKIP_LOCKED).claims(gate).create();
        // due after the scheduler has started: not misfired on a slow machine
        Date due = AbstractQuartzContractTests.at(Instant.now().plusSeconds(3));
        List<JobKey> jobs = new java.util.ArrayList<>();
        for (String name : List.of("delta", "alpha", "charlie", "bravo")) {
            JobDetail job = newJob(SerialJob.class).withIdentity(name).build();
            firing.scheduleJob(job, AbstractQuartzContractTests.once(name, job, due));
            jobs.add(job.getKey());
        }
        this.teardown.add(gate::open);
        firing.start();
        await().atMost(Duration.ofSeconds(10)).until(gate::holding);
        assertThat(gate.heldBatch()).as("fires of the held transaction").hasSize(jobs.size());

        try (Connection probe = this.cluster.database.connect()) {
            for (JobKey job : jobs) {
                assertThat(lockedElsewhere(probe, "JOB_DETAILS", "JOB", job.getName(), job.getGroup()))
                        .as("row of job " + job)
                        .isTrue();
            }
        }
        gate.open();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> jobs.stream().allMatch((job) -> Fires.of(job).size() == 1));
    }

    @Test
    void theMisfireHandlerDoesNotWriteOverAFireThatRacedIt() throws Exception {
        // a trigger due five seconds ago: misfired for the strict node, not for the lenient one
        Scheduler strict = this.cluster
                .node("strict", Store.SKIP_LOCKED)
                .misfireThreshold(1000)
                .create();
        Scheduler lenient = this.cluster
                .node("lenient", Store.SKIP_LOCKED)
                .misfireThreshold(60_000)
                .create();
        JobDetail job = newJob(FreeJob.class).withIdentity("late").build();
        Trigger late = newTrigger()
                .withIdentity("late")
                .forJob(job)
                .startAt(AbstractQuartzContractTests.at(Instant.now().minusSeconds(5)))
                .withSchedule(
                        simpleSchedule().withIntervalInHours(1).repeatForever().withMisfireHandlingInstructionFireNow())
                .build();
        strict.scheduleJob(job, late);
        // the fire of this probe shows that the lenient node looked for due triggers, and passed the
        // late one, while the strict node's misfire handler held it
        JobDetail probe = newJob(FreeJob.class).withIdentity("probe").build();
        lenient.scheduleJob(
                probe,
                AbstractQuartzContractTests.once(
                        "probe",
                        probe,
                        AbstractQuartzContractTests.at(Instant.now().plusSeconds(3))));
        MisfireGate handling = new MisfireGate();
        this.teardown.add(handling.release::countDown);
        strict.getListenerManager().addTriggerListener(handling, KeyMatcher.keyEquals(late.getKey()));

        // the strict node's misfire handler takes the trigger and is held before it writes it back
        strict.start();
        strict.standby();
        await().atMost(Duration.ofSeconds(5)).until(() -> handling.entered.getCount() == 0);

        // meanwhile the trigger is due for the lenient node
        lenient.start();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(probe.getKey()).size() == 1);
        handling.release.countDown();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(late.getKey()).size() >= 1);
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).untilAsserted(() -> assertThat(
                        Fires.of(late.getKey()))
                .as("fires of the late trigger")
                .hasSize(1));
    }

    @Test
    void aCalendarChangedWhileATriggerFiresDoesNotMakeItFireAgain() throws Exception {
        Instant start = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
        Instant second = start.plusSeconds(1);
        FireGate gate = new FireGate(
                (bundle) -> bundle.getScheduledFireTime().toInstant().equals(second));
        Scheduler firing =
                this.cluster.node("n1", Store.SKIP_LOCKED).claims(gate).start();
        Scheduler other = this.cluster.node("n2", Store.SKIP_LOCKED).create();
        firing.addCalendar("holidays", new CronCalendar("0 0 0 1 1 ? 2099"), false, false);
        JobDetail job = newJob(FreeJob.class).withIdentity("calendared").build();
        Trigger everySecond = newTrigger()
                .withIdentity("every-second")
                .forJob(job)
                .modifiedByCalendar("holidays")
                .startAt(AbstractQuartzContractTests.at(start))
                .withSchedule(simpleSchedule().withIntervalInSeconds(1).repeatForever())
                .build();
        firing.scheduleJob(job, everySecond);
        this.teardown.add(gate::open);
        await().atMost(Duration.ofSeconds(5)).until(gate::holding);

        Future<?> changing = this.background.submit(() -> {
            other.addCalendar("holidays", new CronCalendar("0 0 0 2 1 ? 2099"), true, true);
            return null;
        });
        await().atMost(Duration.ofSeconds(5))
                .until(() -> changing.isDone() || this.cluster.sessionsWaitingForALock() > 0);
        gate.open();
        changing.get(10, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(everySecond.getKey()).size() >= 4);
        assertThat(Fires.of(everySecond.getKey()))
                .extracting(Fire::scheduledAt)
                .doesNotHaveDuplicates()
                .startsWith(start, second, second.plusSeconds(1));
    }

    static Trigger every300Millis(JobDetail job, String name) {
        return newTrigger()
                .withIdentity(job.getKey().getName() + "-" + name)
                .forJob(job)
                .withSchedule(simpleSchedule().withIntervalInMilliseconds(300).repeatForever())
                .build();
    }

    /**
     * Whether another transaction holds a row as its writer would: a lock of it that does not wait,
     * and that a foreign key's check would not stop (PostgreSQL's key-share, InnoDB's shared
     * lock), fails.
     */
    private boolean lockedElsewhere(Connection probe, String table, String column, String name, String group)
            throws java.sql.SQLException {
        probe.setAutoCommit(false);
        try (java.sql.PreparedStatement statement = probe.prepareStatement("SELECT " + column + "_NAME FROM "
                + PREFIX + table + " WHERE SCHED_NAME = ? AND " + column + "_NAME = ? AND " + column
                + "_GROUP = ? "
                + (this.cluster.database.kind == TestDatabase.Kind.POSTGRES
                        ? "FOR NO KEY UPDATE NOWAIT"
                        : "LOCK IN SHARE MODE NOWAIT"))) {
            statement.setString(1, this.cluster.name);
            statement.setString(2, name);
            statement.setString(3, group);
            try (java.sql.ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).as(table + " row " + name).isTrue();
                return false;
            }
        } catch (java.sql.SQLException ex) {
            // PostgreSQL: lock_not_available; MariaDB: lock wait timeout, at once with NOWAIT
            if ("55P03".equals(ex.getSQLState()) || ex.getErrorCode() == 1205) {
                return true;
            }
            throw ex;
        } finally {
            probe.rollback();
        }
    }

    private static long startedAfter(JobKey job, Instant after) {
        return Fires.of(job).stream()
                .filter((fire) -> fire.startedAt().isAfter(after))
                .count();
    }

    /** Holds the misfire handler in its notice of the misfire, before it writes the trigger back. */
    static final class MisfireGate implements TriggerListener {

        final CountDownLatch entered = new CountDownLatch(1);

        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String getName() {
            return "misfire-gate";
        }

        @Override
        public void triggerMisfired(Trigger trigger) {
            this.entered.countDown();
            try {
                this.release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void triggerFired(Trigger trigger, JobExecutionContext context) {}

        @Override
        public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
            return false;
        }

        @Override
        public void triggerComplete(
                Trigger trigger, JobExecutionContext context, CompletedExecutionInstruction instruction) {}
    }
}
