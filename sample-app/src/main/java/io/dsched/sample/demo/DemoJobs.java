package io.dsched.sample.demo;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.definition.Schedule;
import io.dsched.execution.JobContext;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RecurringJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Two jobs that fail on purpose, for the admin UI: {@code ledgerExport}, whose partner never
 * answers, so that its fires end as dead letters with a stack trace and log lines; and
 * {@code untrustedTextDemo}, a job defined at run time whose parameters hold markup that a careless
 * UI would run. It logs the note and fails with it, so that the note reaches the parameters, the
 * log lines and the error message. The UI must show it as text.
 */
@Component
public class DemoJobs implements ApplicationRunner {

    /** Name of the job that always fails. */
    public static final String LEDGER_EXPORT = "ledgerExport";

    /** Name of the runtime job whose parameters are untrusted text. */
    public static final String UNTRUSTED_TEXT_DEMO = "untrustedTextDemo";

    /** Name of its handler. */
    public static final String NOTE_HANDLER = "demo.note";

    /** The untrusted text: were it rendered as HTML, it would set window.dschedXss. */
    public static final String UNTRUSTED_NOTE =
            "<script>window.dschedXss = 'script'</script>" + "<img src=x onerror=\"window.dschedXss = 'img'\">";

    private static final Logger logger = LoggerFactory.getLogger(DemoJobs.class);

    private final JobScheduler scheduler;

    /**
     * Creates the jobs.
     * @param scheduler where the runtime job is defined
     */
    public DemoJobs(JobScheduler scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Exports the day's settlements to a ledger that never answers; after two attempts the fire is
     * dead-lettered.
     * @param ctx the fire
     */
    @DistributedScheduled(
            name = LEDGER_EXPORT,
            cron = "0 */30 * * * *",
            retry = @io.dsched.retry.Retry(maxAttempts = 2, delay = "1s"))
    public void exportToLedger(JobContext ctx) {
        logger.info("Exporting settlements of fire {} to the ledger (attempt {})", ctx.scheduledAt(), ctx.attempt());
        logger.warn("The ledger did not answer within 5s");
        throw new IllegalStateException("Ledger unavailable: export of fire " + ctx.scheduledAt() + " refused");
    }

    /**
     * Logs a note and fails with it.
     * @param note the note, untrusted text
     * @param ctx the run
     */
    @JobHandler(value = NOTE_HANDLER, retry = @io.dsched.retry.Retry(maxAttempts = 1))
    public void note(Note note, JobContext ctx) {
        logger.info("Note for attempt {}: {}", ctx.attempt(), note.note());
        throw new IllegalArgumentException("Rejected note " + note.note());
    }

    @Override
    public void run(ApplicationArguments args) {
        if (this.scheduler.recurring(UNTRUSTED_TEXT_DEMO).isPresent()) {
            return;
        }
        try {
            this.scheduler.create(RecurringJob.of(
                    UNTRUSTED_TEXT_DEMO,
                    NOTE_HANDLER,
                    new Schedule.Cron("0 0 4 * * *", null),
                    new Note(UNTRUSTED_NOTE)));
        } catch (RuntimeException ex) {
            // another instance created it at the same time
            logger.debug("Did not create {}: {}", UNTRUSTED_TEXT_DEMO, ex.toString());
        }
    }

    /**
     * The parameters of the untrusted-text demo.
     *
     * @param note text that a user typed
     */
    public record Note(String note) {}
}
