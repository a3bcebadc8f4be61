package io.dsched.engine;

import java.util.function.Consumer;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * The Quartz job behind every dsched job: it hands the fire to the engine's dispatcher. Not for
 * applications to use; it stays outside {@code io.dsched.internal} and keeps its name because
 * Quartz stores the name in {@code qrtz_job_details}: nodes of different dsched versions read
 * each other's rows during a rolling deployment, and a node that cannot load a job's class puts
 * its trigger in Quartz's {@code ERROR} state.
 *
 * <p>Quartz holds a job's trigger back anywhere in the cluster while one of its fires runs, so
 * that fires of one job run one after the other: fires that fall due during a long run, or that
 * a node taking over finds overdue, run in order afterwards instead of at once. The ShedLock
 * guard still covers what Quartz cannot see, such as a run on a node presumed dead.
 */
@DisallowConcurrentExecution
public final class DschedQuartzJob implements Job {

    private final Consumer<JobExecutionContext> dispatcher;

    /**
     * Creates the job of one fire.
     * @param dispatcher runs the fire
     */
    public DschedQuartzJob(Consumer<JobExecutionContext> dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Override
    public void execute(JobExecutionContext context) {
        this.dispatcher.accept(context);
    }
}
