package io.dsched.engine;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * The Quartz job behind every dsched job: it hands the fire to the {@link FireDispatcher}.
 *
 * <p>Quartz holds a job's trigger back anywhere in the cluster while one of its fires runs, so
 * that fires of one job run one after the other: fires that fall due during a long run, or that
 * a node taking over finds overdue, run in order afterwards instead of at once. The ShedLock
 * guard still covers what Quartz cannot see, such as a run on a node presumed dead.
 */
@DisallowConcurrentExecution
public class DschedQuartzJob implements Job {

    private final FireDispatcher dispatcher;

    DschedQuartzJob(FireDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Override
    public void execute(JobExecutionContext context) {
        this.dispatcher.dispatch(context);
    }
}
