package io.dsched.internal.jobs;

import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.jobs.UnknownJobException;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.util.function.Supplier;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;

/** Calls into this node's Quartz scheduler, made again when the database rolled one back in a deadlock. */
final class QuartzCalls {

    private static final int DEADLOCK_ATTEMPTS = 3;

    private final Supplier<Scheduler> scheduler;

    QuartzCalls(Supplier<Scheduler> scheduler) {
        this.scheduler = scheduler;
    }

    <T> T call(QuartzCall<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.apply(this.scheduler.get());
            } catch (SchedulerException ex) {
                // a change of a trigger can deadlock with a node firing it (MariaDB, MySQL): the
                // database rolled the change back, so it is safe to make it again
                if (attempt < DEADLOCK_ATTEMPTS && isDeadlock(ex)) {
                    pause(attempt);
                    continue;
                }
                throw new IllegalStateException("The job store did not answer: " + ex.getMessage(), ex);
            }
        }
    }

    void act(QuartzAction action) {
        call((quartz) -> {
            action.apply(quartz);
            return null;
        });
    }

    /** The trigger of a declared job or of one defined at run time. */
    static TriggerKey existing(Scheduler quartz, String job) throws SchedulerException {
        TriggerKey declared = JobSynchronizer.triggerKey(job);
        if (quartz.checkExists(declared)) {
            return declared;
        }
        TriggerKey runtime = TriggerKey.triggerKey(job, RuntimeJobs.GROUP);
        if (quartz.checkExists(runtime)) {
            return runtime;
        }
        throw new UnknownJobException("No scheduled job named '" + job + "'");
    }

    private static boolean isDeadlock(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLTransactionRollbackException
                    || (cause instanceof SQLException sql
                            && sql.getSQLState() != null
                            && sql.getSQLState().startsWith("40"))) {
                return true;
            }
        }
        return false;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(50L * attempt);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while changing a job", ex);
        }
    }

    @FunctionalInterface
    interface QuartzCall<T> {
        T apply(Scheduler scheduler) throws SchedulerException;
    }

    @FunctionalInterface
    interface QuartzAction {
        void apply(Scheduler scheduler) throws SchedulerException;
    }
}
