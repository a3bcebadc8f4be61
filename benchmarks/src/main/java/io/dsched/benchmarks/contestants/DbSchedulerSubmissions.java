package io.dsched.benchmarks.contestants;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.zaxxer.hikari.HikariDataSource;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Submitter;
import java.time.Instant;

/**
 * db-scheduler's side of W5: a running node, and one-offs scheduled due now, one {@code
 * scheduleIfNotExists(task.instance(key, key), Instant.now())} a job, through that node's {@code
 * Scheduler} (a {@code SchedulerClient} too, whose listeners include immediate execution's wake-up
 * when it is enabled) or through a {@code SchedulerClient} of its own that runs nothing.
 */
final class DbSchedulerSubmissions {

    private DbSchedulerSubmissions() {}

    /**
     * Schedules through a client.
     * @param client a node's scheduler, or a client
     * @param task the one-off task
     * @return the submitter
     */
    static Submitter on(SchedulerClient client, OneTimeTask<String> task) {
        return (key) -> {
            if (!client.scheduleIfNotExists(task.instance(key, key), Instant.now())) {
                throw new IllegalStateException("db-scheduler already had an execution " + key);
            }
        };
    }

    /**
     * Opens a {@code SchedulerClient} on a pool of 2 connections, timestamps in UTC as the nodes
     * write them.
     * @param db the database
     * @param task the one-off task
     * @return the submitter; closing it closes the pool
     */
    static Submitter client(BenchDatabase db, OneTimeTask<String> task) {
        HikariDataSource pool = db.pool("db-scheduler-client", 2);
        SchedulerClient client = SchedulerClient.Builder.create(pool, task)
                .jdbcCustomization(new AutodetectJdbcCustomization(pool, true))
                .build();
        return Submitter.closing(on(client, task), pool);
    }

    /**
     * A running node.
     * @param scheduler its scheduler
     * @param pool its pool
     */
    record Node(Scheduler scheduler, HikariDataSource pool) implements AutoCloseable {

        /** Stops the scheduler gracefully, then closes the pool. */
        @Override
        public void close() {
            try {
                this.scheduler.stop();
            } finally {
                this.pool.close();
            }
        }
    }
}
