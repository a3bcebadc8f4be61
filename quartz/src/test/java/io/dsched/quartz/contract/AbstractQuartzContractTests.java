package io.dsched.quartz.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.quartz.JobBuilder.newJob;
import static org.quartz.SimpleScheduleBuilder.simpleSchedule;
import static org.quartz.TriggerBuilder.newTrigger;

import io.dsched.quartz.SpringCronScheduleBuilder;
import io.dsched.quartz.SpringCronTrigger;
import io.dsched.quartz.contract.Fires.CountingJob;
import io.dsched.quartz.contract.Fires.Fire;
import io.dsched.quartz.contract.Fires.FreeJob;
import io.dsched.quartz.contract.Fires.HeldSerialJob;
import io.dsched.quartz.contract.Fires.SerialJob;
import io.dsched.quartz.contract.Fires.StuckJob;
import io.dsched.quartz.contract.TestCluster.Store;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.ObjectAlreadyExistsException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.Trigger.TriggerState;
import org.quartz.TriggerKey;
import org.quartz.impl.calendar.CronCalendar;
import org.quartz.impl.matchers.GroupMatcher;

/**
 * The contract of dsched's Quartz job store as a plain Quartz application sees it, run against each
 * database by a small subclass: Quartz's own store and scheduler behaviour (storing, retrieving,
 * pausing, resuming, unscheduling and rescheduling jobs with several triggers, calendars, misfire
 * instructions, priorities), and in a cluster of nodes in this JVM: no fire twice with several
 * triggers per job, a job that disallows concurrent execution running once at a time with data it
 * persists kept exact, the running fire of a dead node recovered, and the triggers a stopping node
 * acquired put back.
 */
abstract class AbstractQuartzContractTests {

    static final String PREFIX = "QC_";

    TestCluster cluster;

    protected abstract TestDatabase.Kind kind();

    /** The store under test on this database. */
    protected abstract Store store();

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
        Fires.unstick();
        if (this.cluster != null) {
            this.cluster.close();
        }
    }

    @Test
    void aJobWithSeveralTriggersIsStoredRetrievedPausedResumedRescheduledUnscheduledAndDeleted() throws Exception {
        Scheduler node = this.cluster.node("n1", store()).create();
        Date later = at(Instant.now().plus(Duration.ofDays(1)));
        JobDetail job = newJob(FreeJob.class)
                .withIdentity("report", "jobs")
                .usingJobData("owner", "ops")
                .requestRecovery()
                .build();
        Trigger daily = newTrigger()
                .withIdentity("daily", "reports")
                .forJob(job)
                .usingJobData("kind", "daily")
                .withSchedule(CronScheduleBuilder.cronSchedule("0 0 6 * * ?"))
                .startAt(later)
                .build();
        Trigger hourly = newTrigger()
                .withIdentity("hourly", "reports")
                .forJob(job)
                .withSchedule(simpleSchedule().withIntervalInHours(1).repeatForever())
                .startAt(later)
                .build();
        Trigger weekdays = newTrigger()
                .withIdentity("weekdays", "reports")
                .forJob(job)
                .withSchedule(SpringCronScheduleBuilder.cron("0 30 9 * * MON-FRI", ZoneId.of("Europe/Berlin")))
                .startAt(later)
                .build();
        node.scheduleJob(job, Set.of(daily, hourly, weekdays), false);

        JobDetail stored = node.getJobDetail(job.getKey());
        assertThat(stored.getJobDataMap().getString("owner")).isEqualTo("ops");
        assertThat(stored.requestsRecovery()).isTrue();
        assertThat(node.getTriggersOfJob(job.getKey()))
                .extracting(Trigger::getKey)
                .containsExactlyInAnyOrder(daily.getKey(), hourly.getKey(), weekdays.getKey());
        assertThat(node.getTrigger(daily.getKey()).getJobDataMap().getString("kind"))
                .isEqualTo("daily");
        assertThat(node.getTrigger(weekdays.getKey())).isInstanceOfSatisfying(SpringCronTrigger.class, (cron) -> {
            assertThat(cron.getExpression()).isEqualTo("0 30 9 * * MON-FRI");
            assertThat(cron.getZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
        });
        assertThatThrownBy(() -> node.scheduleJob(hourly)).isInstanceOf(ObjectAlreadyExistsException.class);

        node.pauseTrigger(daily.getKey());
        assertThat(states(node, daily, hourly, weekdays))
                .containsExactly(TriggerState.PAUSED, TriggerState.NORMAL, TriggerState.NORMAL);
        node.pauseJob(job.getKey());
        assertThat(states(node, daily, hourly, weekdays)).containsOnly(TriggerState.PAUSED);
        node.resumeJob(job.getKey());
        assertThat(states(node, daily, hourly, weekdays)).containsOnly(TriggerState.NORMAL);
        node.pauseTriggers(GroupMatcher.triggerGroupEquals("reports"));
        assertThat(node.getPausedTriggerGroups()).contains("reports");
        assertThat(states(node, daily, hourly, weekdays)).containsOnly(TriggerState.PAUSED);
        node.resumeTriggers(GroupMatcher.triggerGroupEquals("reports"));
        assertThat(states(node, daily, hourly, weekdays)).containsOnly(TriggerState.NORMAL);

        Trigger everyTwoHours = newTrigger()
                .withIdentity(hourly.getKey())
                .forJob(job)
                .withSchedule(simpleSchedule().withIntervalInHours(2).repeatForever())
                .startAt(later)
                .build();
        assertThat(node.rescheduleJob(hourly.getKey(), everyTwoHours)).isEqualTo(later);
        assertThat(((SimpleTrigger) node.getTrigger(hourly.getKey())).getRepeatInterval())
                .isEqualTo(Duration.ofHours(2).toMillis());
        assertThat(node.unscheduleJob(daily.getKey())).isTrue();
        assertThat(node.getTriggersOfJob(job.getKey()))
                .extracting(Trigger::getKey)
                .containsExactlyInAnyOrder(hourly.getKey(), weekdays.getKey());

        assertThat(node.deleteJob(job.getKey())).isTrue();
        assertThat(node.checkExists(job.getKey())).isFalse();
        assertThat(node.checkExists(hourly.getKey())).isFalse();

        JobDetail once = newJob(FreeJob.class).withIdentity("once", "jobs").build();
        Trigger onlyTrigger = once("only", once, later);
        node.scheduleJob(once, onlyTrigger);
        node.unscheduleJob(onlyTrigger.getKey());
        assertThat(node.checkExists(once.getKey()))
                .as("a job that is not durable goes with its last trigger")
                .isFalse();
    }

    @Test
    void triggersDueTogetherFireInTheOrderOfTheirPriority() throws Exception {
        Scheduler node = this.cluster.node("n1", store()).threads(1).create();
        JobDetail job =
                newJob(FreeJob.class).withIdentity("prioritised").storeDurably().build();
        node.addJob(job, false);
        Date due = at(Instant.now().plusMillis(1500));
        for (int priority : List.of(3, 1, 5, 2, 4)) {
            node.scheduleJob(newTrigger()
                    .withIdentity("priority-" + priority)
                    .forJob(job)
                    .withPriority(priority)
                    .startAt(due)
                    .build());
        }
        node.start();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(job.getKey()).size() == 5);
        assertThat(Fires.of(job.getKey()))
                .extracting((fire) -> fire.trigger().getName())
                .containsExactly("priority-5", "priority-4", "priority-3", "priority-2", "priority-1");
    }

    @Test
    void aCalendarExcludesItsTimesFromTheFiresOfItsTriggersAndAReplacedOneTakesOver() throws Exception {
        Scheduler node = this.cluster.node("n1", store()).start();
        node.addCalendar("odd-seconds", cronCalendar("0/2 * * * * ?"), false, false);
        JobDetail job = newJob(FreeJob.class).withIdentity("calendared").build();
        Trigger everySecond = newTrigger()
                .withIdentity("spring-every-second")
                .forJob(job)
                .modifiedByCalendar("odd-seconds")
                .withSchedule(SpringCronScheduleBuilder.cron("* * * * * *", ZoneOffset.UTC))
                .build();
        Trigger everyHalfSecond = newTrigger()
                .withIdentity("every-half-second")
                .forJob(job)
                .modifiedByCalendar("odd-seconds")
                .withSchedule(simpleSchedule().withIntervalInMilliseconds(500).repeatForever())
                .build();
        node.scheduleJob(job, Set.of(everySecond, everyHalfSecond), false);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(everySecond.getKey()).size() >= 1
                        && Fires.of(everyHalfSecond.getKey()).size() >= 2);
        assertThat(Fires.of(job.getKey())).extracting(Fire::scheduledAt).allSatisfy((time) -> assertThat(
                        time.getEpochSecond() % 2)
                .as("second of %s", time)
                .isOne());

        // measured once the replacement is stored: on a loaded machine it takes more than a second,
        // and the triggers fire by the old calendar until it is
        node.addCalendar("odd-seconds", cronCalendar("1/2 * * * * ?"), true, true);
        Instant replaced = Instant.now();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> firesAfter(everySecond.getKey(), replaced).size() >= 1
                        && firesAfter(everyHalfSecond.getKey(), replaced).size() >= 1);
        assertThat(firesAfter(job.getKey(), replaced))
                .extracting(Fire::scheduledAt)
                .allSatisfy((time) -> assertThat(time.getEpochSecond() % 2)
                        .as("second of %s", time)
                        .isZero());
    }

    @Test
    void misfireInstructionsDecideTheFiresMissedWhileNoNodeRan() throws Exception {
        Scheduler node = this.cluster.node("n1", store()).create();
        Instant missed = Instant.now().minusSeconds(10).truncatedTo(ChronoUnit.MILLIS);
        JobDetail job =
                newJob(FreeJob.class).withIdentity("missed").storeDurably().build();
        node.addJob(job, false);
        Trigger fireNow = newTrigger()
                .withIdentity("fire-now")
                .forJob(job)
                .startAt(at(missed))
                .withSchedule(simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build();
        Trigger ignore = newTrigger()
                .withIdentity("ignore")
                .forJob(job)
                .startAt(at(missed))
                .withSchedule(simpleSchedule()
                        .withIntervalInSeconds(2)
                        .withRepeatCount(3)
                        .withMisfireHandlingInstructionIgnoreMisfires())
                .build();
        Trigger nextWithRemaining = newTrigger()
                .withIdentity("next-with-remaining")
                .forJob(job)
                .startAt(at(missed))
                .withSchedule(simpleSchedule()
                        .withIntervalInHours(1)
                        .repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
        // yearly, last due on the first of January
        Instant newYearsEve = ZonedDateTime.now(ZoneOffset.UTC)
                .withDayOfYear(1)
                .truncatedTo(ChronoUnit.DAYS)
                .minusDays(1)
                .toInstant();
        Trigger cronOnceNow = newTrigger()
                .withIdentity("cron-once-now")
                .forJob(job)
                .startAt(at(newYearsEve))
                .withSchedule(SpringCronScheduleBuilder.cron("0 0 0 1 1 *", ZoneOffset.UTC)
                        .withMisfireHandlingInstructionFireOnceNow())
                .build();
        Trigger cronDoNothing = newTrigger()
                .withIdentity("cron-do-nothing")
                .forJob(job)
                .startAt(at(newYearsEve))
                .withSchedule(SpringCronScheduleBuilder.cron("0 0 0 1 1 *", ZoneOffset.UTC)
                        .withMisfireHandlingInstructionDoNothing())
                .build();
        for (Trigger trigger : List.of(fireNow, ignore, nextWithRemaining, cronOnceNow, cronDoNothing)) {
            node.scheduleJob(trigger);
        }
        Instant started = Instant.now();
        node.start();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(fireNow.getKey()).size() == 1
                        && Fires.of(ignore.getKey()).size() == 4
                        && Fires.of(cronOnceNow.getKey()).size() == 1);
        assertThat(Fires.of(fireNow.getKey()).get(0).scheduledAt()).isAfterOrEqualTo(started.minusMillis(100));
        assertThat(Fires.of(ignore.getKey()))
                .extracting(Fire::scheduledAt)
                .containsExactlyInAnyOrder(missed, missed.plusSeconds(2), missed.plusSeconds(4), missed.plusSeconds(6));
        assertThat(Fires.of(cronOnceNow.getKey()).get(0).scheduledAt()).isAfterOrEqualTo(started.minusMillis(100));
        assertThat(Fires.of(nextWithRemaining.getKey())).isEmpty();
        assertThat(node.getTrigger(nextWithRemaining.getKey()).getNextFireTime())
                .isEqualTo(at(missed.plus(Duration.ofHours(1))));
        assertThat(Fires.of(cronDoNothing.getKey())).isEmpty();
        assertThat(node.getTrigger(cronDoNothing.getKey()).getNextFireTime())
                .isEqualTo(at(ZonedDateTime.now(ZoneOffset.UTC)
                        .withDayOfYear(1)
                        .truncatedTo(ChronoUnit.DAYS)
                        .plusYears(1)
                        .toInstant()));
    }

    @Test
    void noFireRunsTwiceOnThreeNodesWithSeveralTriggersPerJob() throws Exception {
        List<Scheduler> nodes = List.of(
                this.cluster.node("n1", store()).threads(3).start(),
                this.cluster.node("n2", store()).threads(3).start(),
                this.cluster.node("n3", store()).threads(3).start());
        Instant start = Instant.now().plusMillis(1500);
        List<TriggerKey> triggers = new ArrayList<>();
        for (int j = 0; j < 4; j++) {
            JobDetail job = newJob(FreeJob.class).withIdentity("job-" + j).build();
            Set<Trigger> ofJob = new java.util.HashSet<>();
            for (int t = 0; t < 3; t++) {
                Trigger trigger = newTrigger()
                        .withIdentity("job-" + j + "-trigger-" + t)
                        .forJob(job)
                        .startAt(at(start.plusMillis(50L * t)))
                        .withSchedule(simpleSchedule()
                                .withIntervalInMilliseconds(200)
                                .withRepeatCount(9)
                                .withMisfireHandlingInstructionIgnoreMisfires())
                        .build();
                ofJob.add(trigger);
                triggers.add(trigger.getKey());
            }
            nodes.get(j % 3).scheduleJob(job, ofJob, false);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> Fires.all().size() >= 120 && triggersLeft() == 0);
        List<Fire> fires = Fires.all();
        assertThat(fires).hasSize(120);
        for (TriggerKey trigger : triggers) {
            assertThat(Fires.of(trigger))
                    .as("fires of %s", trigger)
                    .extracting(Fire::scheduledAt)
                    .doesNotHaveDuplicates()
                    .hasSize(10);
        }
        assertThat(fires.stream().map(Fire::node).distinct().count())
                .as("nodes that fired")
                .isGreaterThan(1);
    }

    @Test
    void aJobThatDisallowsConcurrentExecutionRunsOnceAtATimeAcrossNodesAndTheDataItPersistsStaysExact()
            throws Exception {
        List<Scheduler> nodes = List.of(
                this.cluster.node("n1", store()).start(),
                this.cluster.node("n2", store()).start(),
                this.cluster.node("n3", store()).start());
        JobDetail job = newJob(CountingJob.class)
                .withIdentity("counter")
                .usingJobData("count", "0")
                .storeDurably()
                .build();
        nodes.get(0).addJob(job, false);
        Instant start = Instant.now().plusMillis(1500);
        for (int t = 0; t < 4; t++) {
            nodes.get(t % 3)
                    .scheduleJob(newTrigger()
                            .withIdentity("counter-" + t)
                            .forJob(job)
                            .usingJobData("workMillis", "30")
                            .startAt(at(start.plusMillis(25L * t)))
                            .withSchedule(simpleSchedule()
                                    .withIntervalInMilliseconds(100)
                                    .withRepeatCount(6)
                                    .withMisfireHandlingInstructionIgnoreMisfires())
                            .build());
        }

        await().atMost(Duration.ofSeconds(20))
                .until(() -> Fires.of(job.getKey()).size() >= 28 && triggersLeft() == 0);
        assertThat(Fires.of(job.getKey())).hasSize(28);
        assertThat(Fires.mostAtOnce(job.getKey())).as("runs at once").isOne();
        assertThat(nodes.get(1).getJobDetail(job.getKey()).getJobDataMap().getString("count"))
                .isEqualTo("28");
    }

    @Test
    void aTriggerAcquiredByOneNodeWhileASiblingFiresOnAnotherStaysBlockedUntilTheSiblingsRunEnds() throws Exception {
        JobDetail job = newJob(SerialJob.class)
                .withIdentity("serial")
                .usingJobData("workMillis", "1500")
                .storeDurably()
                .build();
        Instant due = Instant.now().plusSeconds(2);
        Trigger first = once("first", job, at(due));
        Trigger second = once("second", job, at(due));
        Scheduler one = this.cluster
                .node("n1", store())
                .idleWait(6000)
                .misfireThreshold(5000)
                .create();
        Scheduler two = this.cluster
                .node("n2", store())
                .idleWait(6000)
                .misfireThreshold(5000)
                .create();
        one.addJob(job, false);
        one.scheduleJob(first);
        one.scheduleJob(second);

        // each node acquires one of the two before they are due: Quartz acquires one trigger of
        // such a job at a time
        one.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> acquired(first, second) == 1);
        two.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> acquired(first, second) == 2);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(job.getKey()).size() == 2);
        assertThat(Fires.mostAtOnce(job.getKey())).as("runs at once").isOne();
        assertThat(Fires.of(job.getKey()))
                .extracting(Fire::trigger)
                .containsExactlyInAnyOrder(first.getKey(), second.getKey());
    }

    @Test
    void whenARunOfAJobThatDisallowsConcurrencyEndsItsBlockedTriggersWaitAndThosePausedMeanwhileStayPaused()
            throws Exception {
        JobDetail job =
                newJob(HeldSerialJob.class).withIdentity("held").storeDurably().build();
        // a job of the same name in another group, whose triggers are not the run's to set free
        JobDetail namesake = newJob(HeldSerialJob.class)
                .withIdentity("held", "other")
                .storeDurably()
                .build();
        Scheduler node = this.cluster.node("n1", store()).start();
        node.addJob(job, false);
        node.addJob(namesake, false);
        Instant later = Instant.now().plus(Duration.ofHours(1));
        Trigger sibling = once("sibling", job, at(later));
        Trigger paused = once("paused", job, at(later));
        Trigger stranger = once("stranger", namesake, at(later));
        node.scheduleJob(sibling);
        node.scheduleJob(paused);
        node.scheduleJob(stranger);
        // fires again: its fire ends with Quartz's instruction to do nothing to the trigger
        Trigger recurring = newTrigger()
                .withIdentity("recurring")
                .forJob(job)
                .withSchedule(
                        simpleSchedule().withIntervalInHours(1).repeatForever().withMisfireHandlingInstructionFireNow())
                .startNow()
                .build();
        node.scheduleJob(recurring);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(recurring.getKey()).size() == 1);
        assertThat(this.cluster.state(sibling.getKey())).isEqualTo("BLOCKED");
        node.pauseTrigger(paused.getKey());
        assertThat(this.cluster.state(paused.getKey())).isEqualTo("PAUSED_BLOCKED");
        this.cluster.state(stranger.getKey(), "BLOCKED");

        Fires.unstick();
        await().atMost(Duration.ofSeconds(10)).until(() -> "WAITING".equals(this.cluster.state(recurring.getKey())));
        assertThat(this.cluster.state(sibling.getKey())).isEqualTo("WAITING");
        assertThat(this.cluster.state(paused.getKey())).isEqualTo("PAUSED");
        assertThat(this.cluster.state(stranger.getKey())).isEqualTo("BLOCKED");
        assertThat(this.cluster.fired(recurring.getKey(), "EXECUTING"))
                .as("the fire's record")
                .isZero();
    }

    @Test
    void aTriggerStoredForAJobThatDisallowsConcurrencyWhileItRunsStartsBlockedAndFiresAfterTheRun() throws Exception {
        JobDetail job = newJob(SerialJob.class)
                .withIdentity("serial")
                .usingJobData("workMillis", "1500")
                .storeDurably()
                .build();
        Scheduler runner = this.cluster.node("n1", store()).start();
        this.cluster.node("n2", store()).start();
        runner.addJob(job, false);
        Trigger now = once("now", job, new Date());
        runner.scheduleJob(now);
        await().atMost(Duration.ofSeconds(5)).until(() -> Fires.of(now.getKey()).size() == 1);

        Trigger added = once("added", job, new Date());
        runner.scheduleJob(added);
        assertThat(this.cluster.state(added.getKey())).isEqualTo("BLOCKED");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(added.getKey()).size() == 1);
        assertThat(Fires.mostAtOnce(job.getKey())).as("runs at once").isOne();
    }

    @Test
    void theRunningFireOfADeadNodeThatRequestsRecoveryIsRunAgainOnceByAnotherNode() throws Exception {
        Scheduler doomed = this.cluster.node("n1", store()).start();
        JobDetail job =
                newJob(StuckJob.class).withIdentity("stuck").requestRecovery().build();
        doomed.scheduleJob(job, once("now", job, new Date()));
        await().atMost(Duration.ofSeconds(5)).until(() -> Fires.of(job.getKey()).size() == 1);
        this.cluster.node("n2", store()).start();
        this.cluster.node("n3", store()).start();

        // dies: no clean-up, no more check-ins, and the others find its check-in old
        doomed.shutdown(false);
        this.cluster.ageCheckIn("n1");

        await().atMost(Duration.ofSeconds(10))
                .until(() -> recoveries(job.getKey()).size() == 1);
        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(3))
                .until(() -> recoveries(job.getKey()).size() == 1);
        assertThat(recoveries(job.getKey()).get(0).node()).isIn("n2", "n3");
        assertThat(Fires.of(job.getKey())).hasSize(2);
    }

    @Test
    void aNodeThatStopsPutsBackTheTriggersItAcquiredAheadOfTheirTime() throws Exception {
        assertStoppingNodeLeaves(store(), "WAITING", 0);
    }

    /** Starts a node that acquires a trigger due later than now, stops it, and checks what it left. */
    void assertStoppingNodeLeaves(Store store, String state, long acquiredRecords) throws Exception {
        Scheduler node = this.cluster.node("n1", store).idleWait(30_000).create();
        JobDetail job = newJob(FreeJob.class).withIdentity("later").build();
        Trigger later = once("later", job, at(Instant.now().plusSeconds(15)));
        node.scheduleJob(job, later);
        node.start();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> "ACQUIRED".equals(this.cluster.state(later.getKey()))
                        && this.cluster.fired(later.getKey(), "ACQUIRED") == 1);

        node.shutdown(true);

        assertThat(this.cluster.state(later.getKey())).isEqualTo(state);
        assertThat(this.cluster.fired(later.getKey(), "ACQUIRED")).isEqualTo(acquiredRecords);
    }

    /** Fires of a job that were recoveries. */
    static List<Fire> recoveries(JobKey job) {
        return Fires.of(job).stream().filter(Fire::recovering).toList();
    }

    long acquired(Trigger... triggers) {
        long acquired = 0;
        for (Trigger trigger : triggers) {
            acquired += this.cluster.fired(trigger.getKey(), "ACQUIRED");
        }
        return acquired;
    }

    long triggersLeft() {
        return this.cluster.count("SELECT COUNT(*) FROM {P}TRIGGERS WHERE SCHED_NAME = ?");
    }

    static List<Fire> firesAfter(Object key, Instant after) {
        List<Fire> fires = (key instanceof JobKey job) ? Fires.of(job) : Fires.of((TriggerKey) key);
        // a fire scheduled within two seconds of the change may have been computed before it: the
        // scheduler thread takes the triggers due within its idle wait (1 s) ahead, and fires them as
        // it took them
        return fires.stream()
                .filter((fire) -> fire.scheduledAt().isAfter(after.plusSeconds(2)))
                .collect(Collectors.toList());
    }

    static Trigger once(String name, JobDetail job, Date at) {
        return newTrigger().withIdentity(name).forJob(job).startAt(at).build();
    }

    static Date at(Instant instant) {
        return Date.from(instant);
    }

    static List<TriggerState> states(Scheduler node, Trigger... triggers) throws SchedulerException {
        List<TriggerState> states = new ArrayList<>();
        for (Trigger trigger : triggers) {
            states.add(node.getTriggerState(trigger.getKey()));
        }
        return states;
    }

    static CronCalendar cronCalendar(String expression) {
        try {
            return new CronCalendar(expression);
        } catch (ParseException ex) {
            throw new IllegalArgumentException(ex);
        }
    }
}
