package io.dsched.sample.jobs;

import io.dsched.definition.Schedule;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.ScheduledJob;
import io.dsched.jobs.UnknownJobException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Manages the scheduled jobs at run time, on every node at once: {@code GET /jobs/{name}},
 * {@code POST /jobs/{name}/trigger}, {@code /pause} and {@code /resume}, and
 * {@code PUT /jobs/{name}/schedule} with {@code {"cron": "..."}}.
 *
 * <p>A demo: it asks for no credentials. A real application protects these writes, as dsched's own
 * management endpoint does.
 */
@RestController
@RequestMapping("/jobs/{name}")
public class JobController {

    private final JobScheduler jobs;

    /**
     * Creates the controller.
     * @param jobs dsched's job API
     */
    public JobController(JobScheduler jobs) {
        this.jobs = jobs;
    }

    /**
     * Shows a job.
     * @param name the job
     * @return whether it is paused and the schedule in force
     */
    @GetMapping
    public JobView show(@PathVariable String name) {
        return new JobView(name, this.jobs.isPaused(name), this.jobs.scheduleOf(name));
    }

    /**
     * Runs a job once now, outside its schedule.
     * @param name the job
     * @return the run, waiting for a node to claim it
     */
    @PostMapping("/trigger")
    @ResponseStatus(HttpStatus.ACCEPTED)
    public ScheduledJob trigger(@PathVariable String name) {
        return this.jobs.trigger(name);
    }

    /**
     * Stops a job from firing until it is resumed.
     * @param name the job
     * @return the job as it is now
     */
    @PostMapping("/pause")
    public JobView pause(@PathVariable String name) {
        this.jobs.pause(name);
        return show(name);
    }

    /**
     * Lets a paused job fire again.
     * @param name the job
     * @return the job as it is now
     */
    @PostMapping("/resume")
    public JobView resume(@PathVariable String name) {
        this.jobs.resume(name);
        return show(name);
    }

    /**
     * Replaces a job's schedule with a cron expression; the change survives restarts.
     * @param name the job
     * @param schedule the new cron expression
     * @return the job as it is now
     */
    @PutMapping("/schedule")
    public JobView reschedule(@PathVariable String name, @RequestBody NewSchedule schedule) {
        if (schedule == null || !StringUtils.hasText(schedule.cron())) {
            throw new IllegalArgumentException(
                    "The body must give a cron expression, such as {\"cron\": \"0 */5 * * * *\"}");
        }
        this.jobs.reschedule(name, new Schedule.Cron(schedule.cron().trim(), null));
        return show(name);
    }

    @ExceptionHandler(UnknownJobException.class)
    ProblemDetail unknownJob(UnknownJobException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badRequest(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }
}
