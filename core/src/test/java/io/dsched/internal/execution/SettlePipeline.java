package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.FireDispatcher;
import io.dsched.internal.store.InMemoryStore;
import io.dsched.quartz.NodeStanding;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;

/**
 * One job, {@value #JOB}, that counts its runs and is not retried, with the pipeline of node
 * {@code node-1} that takes its fires, on an in-memory H2 database: for the tests of what the
 * engine does with fires. Its guard has no lock provider: H2 takes no guard in a fire's
 * transaction, and the job is unguarded.
 */
public final class SettlePipeline implements AutoCloseable {

    /** The job's name. */
    public static final String JOB = "settle";

    /** A node's standing that takes fires and judges no other node. */
    public static final NodeStanding STANDING = new NodeStanding() {
        @Override
        public boolean takesFires() {
            return true;
        }

        @Override
        public Optional<Set<String>> liveNodes() {
            return Optional.empty();
        }
    };

    private final InMemoryStore database = new InMemoryStore();

    private final Clock clock = Clock.systemUTC();

    private final AtomicInteger runs = new AtomicInteger();

    private final AtomicInteger wakeUps = new AtomicInteger();

    private final StopRequests stops = new StopRequests((ids) -> Map.of(), Duration.ofHours(1), Duration.ofSeconds(1));

    private final JobTargets targets = new JobTargets() {
        @Override
        public Optional<JobTarget> find(String name) {
            return JOB.equals(name)
                    ? Optional.of(Fixtures.job(
                            JOB, Fixtures.retries(1), false, null, (context, payload) -> runs.incrementAndGet()))
                    : Optional.empty();
        }

        @Override
        public Set<String> names() {
            return Set.of(JOB);
        }
    };

    private final JobGuard guard = new JobGuard(null, null, Duration.ofMinutes(1), Duration.ZERO, this.clock, "dsched");

    private final AttemptRunner runner =
            TestPipeline.runner(this.targets, this.database.store(), this.guard, this.clock, this.stops);

    private final FireDispatcher dispatcher = new FireDispatcher(
            TestPipeline.fires(
                    this.database.store(),
                    this.runner,
                    this.guard,
                    this.targets,
                    this.wakeUps::incrementAndGet,
                    this.clock),
            new JobRegistry(),
            this.clock);

    /** The database. */
    public InMemoryStore database() {
        return this.database;
    }

    /** The clock of the pipeline. */
    public Clock clock() {
        return this.clock;
    }

    /** The dispatcher that hands the job's fires to the pipeline. */
    public FireDispatcher dispatcher() {
        return this.dispatcher;
    }

    /** How many times the job ran. */
    public AtomicInteger runs() {
        return this.runs;
    }

    /** How many times the pipeline woke the queue. */
    public AtomicInteger wakeUps() {
        return this.wakeUps;
    }

    /** The job's attempts in the history. */
    public List<ExecutionRecord> attempts() {
        return StreamSupport.stream(this.database.executions().findAll().spliterator(), false)
                .filter((attempt) -> attempt.jobName().equals(JOB))
                .toList();
    }

    @Override
    public void close() {
        this.runner.close();
        this.stops.close();
        this.database.store().close();
    }
}
