package io.dsched.engine;

import org.quartz.DisallowConcurrentExecution;

/**
 * The Quartz job of fixed-delay jobs: Quartz holds the trigger back anywhere in the cluster while
 * a run is in progress, so that the next fire is timed from the end of the previous run.
 */
@DisallowConcurrentExecution
public class NonConcurrentDschedQuartzJob extends DschedQuartzJob {

    NonConcurrentDschedQuartzJob(FireDispatcher dispatcher) {
        super(dispatcher);
    }
}
