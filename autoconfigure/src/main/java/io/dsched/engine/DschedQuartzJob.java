package io.dsched.engine;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

/**
 * The Quartz job behind every dsched job: it hands the fire to the {@link FireDispatcher}.
 */
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
