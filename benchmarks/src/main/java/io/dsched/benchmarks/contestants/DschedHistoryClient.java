package io.dsched.benchmarks.contestants;

import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedProperties;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.history.Retention;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.jobs.JobScheduler;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * A dsched node that runs no jobs, for W8 (history at scale): it hands out the pieces of dsched
 * that a worker and the management endpoint go through, so that the workload can time each
 * statement they send on a small and on a large history: the store of attempts (claims and
 * outcomes), the views the endpoint and the admin UI read, the dead letters and housekeeping.
 * They are the application's own beans, wired by dsched's auto-configuration; the views are those
 * of the endpoint's configuration, without Actuator on the benchmark's class path.
 */
public final class DschedHistoryClient implements AutoCloseable {

    /** The node id of the client: the claims it makes in W8 are made as this node. */
    public static final String NODE = "bench-history";

    private final ConfigurableApplicationContext context;

    private DschedHistoryClient(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /**
     * Starts a client on a database whose dsched tables exist.
     * @param db the database
     * @return the client
     */
    public static DschedHistoryClient start(BenchDatabase db) {
        return new DschedHistoryClient(
                DschedContestant.context(ManagedNode.class, db, NODE, 1, false, DschedContestant.Variant.DEFAULTS));
    }

    /**
     * Returns the store of attempts.
     * @return the store
     */
    public ExecutionStore store() {
        return this.context.getBean(ExecutionStore.class);
    }

    /**
     * Returns the scheduler, to define jobs.
     * @return the scheduler
     */
    public JobScheduler scheduler() {
        return this.context.getBean(JobScheduler.class);
    }

    /**
     * Returns the views of attempts.
     * @return the views
     */
    public ExecutionViews executions() {
        return this.context.getBean(ExecutionViews.class);
    }

    /**
     * Returns the views of jobs.
     * @return the views
     */
    public JobViews jobs() {
        return this.context.getBean(JobViews.class);
    }

    /**
     * Returns the views of the cluster: the overview and the timeline.
     * @return the views
     */
    public ClusterViews cluster() {
        return this.context.getBean(ClusterViews.class);
    }

    /**
     * Returns the dead letters.
     * @return the dead letters
     */
    public DeadLetters deadLetters() {
        return this.context.getBean(DeadLetters.class);
    }

    /**
     * Returns housekeeping with the application's retentions of waiting attempts, the audit log
     * and deployments, but with a retention of the history, a clock and, if asked, a batch size
     * and a pause of the caller's: W8 deletes one day of history a round by moving the clock on a
     * day.
     * @param retention how long the history is kept
     * @param clock what housekeeping takes for now
     * @param batchSize rows a batch, or 0 for the application's {@code dsched.history.batch-size}
     * @param batchPause the rest after each batch, such as {@code 20ms}, or empty for the
     *     application's {@code dsched.history.batch-pause}
     * @return housekeeping
     */
    public Housekeeping housekeeping(Duration retention, Clock clock, int batchSize, String batchPause) {
        DschedJdbc jdbc = this.context.getBean(DschedJdbc.class);
        DschedProperties properties = this.context.getBean(DschedProperties.class);
        DschedProperties.History history = properties.getHistory();
        return new Housekeeping(
                jdbc.dataSource(),
                jdbc.platform(),
                jdbc.tables(),
                new Retention(
                        retention,
                        history.getWaitingRetention(),
                        properties.getManagement().getAuditRetention(),
                        properties.getJobs().getDeploymentRetention()),
                (batchSize > 0) ? batchSize : history.getBatchSize(),
                batchPause.isEmpty() ? history.getBatchPause() : DurationStyle.detectAndParse(batchPause),
                clock);
    }

    @Override
    public void close() {
        this.context.close();
    }

    /** A node with the endpoint's views. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(ManagementViews.class)
    public static class ManagedNode extends DschedContestant.Node {}

    /**
     * Imports the views that dsched's endpoint auto-configuration imports, by name: their
     * configuration is not public, and the endpoint's own needs Actuator.
     */
    static final class ManagementViews implements ImportSelector {

        @Override
        public String[] selectImports(AnnotationMetadata metadata) {
            return new String[] {"io.dsched.autoconfigure.DschedManagementConfiguration"};
        }
    }
}
