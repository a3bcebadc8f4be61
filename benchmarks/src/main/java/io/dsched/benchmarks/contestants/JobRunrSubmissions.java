package io.dsched.benchmarks.contestants;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.Submitter;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.common.SqlStorageProviderFactory;

/**
 * JobRunr's side of W5: a running node, and one-offs enqueued one {@code
 * jobScheduler.enqueue(() -> Probe.oneOff(key))} a job, through that node's {@code JobScheduler} or
 * through a client-only configuration (a storage provider and no {@code BackgroundJobServer}).
 */
final class JobRunrSubmissions {

    private JobRunrSubmissions() {}

    /**
     * Enqueues through a {@code JobScheduler}.
     * @param scheduler a node's, or a client's
     * @return the submitter
     */
    static Submitter enqueuer(JobScheduler scheduler) {
        return (key) -> scheduler.enqueue(() -> Probe.oneOff(key));
    }

    /**
     * Configures a client-only JobRunr on a pool of 2 connections.
     * @param db the database
     * @return the submitter; closing it closes the storage provider and the pool
     */
    static Submitter client(BenchDatabase db) {
        HikariDataSource pool = db.pool("jobrunr-client", 2);
        try {
            StorageProvider storage = SqlStorageProviderFactory.using(pool);
            JobScheduler scheduler =
                    JobRunr.configure().useStorageProvider(storage).initialize().getJobScheduler();
            return Submitter.closing(enqueuer(scheduler), () -> {
                try {
                    storage.close();
                } finally {
                    pool.close();
                }
            });
        } catch (RuntimeException ex) {
            pool.close();
            throw ex;
        }
    }

    /**
     * A running node.
     * @param server its background job server
     * @param scheduler the {@code JobScheduler} of its configuration
     * @param storage its storage provider
     * @param pool its pool
     */
    record Node(BackgroundJobServer server, JobScheduler scheduler, StorageProvider storage, HikariDataSource pool)
            implements AutoCloseable {

        /** Stops the server gracefully, then closes the storage provider and the pool. */
        @Override
        public void close() {
            try {
                this.server.stop();
            } finally {
                try {
                    this.storage.close();
                } finally {
                    this.pool.close();
                }
            }
        }
    }
}
