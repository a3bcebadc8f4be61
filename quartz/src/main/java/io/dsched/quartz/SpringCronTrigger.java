package io.dsched.quartz;

import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Date;
import org.quartz.Calendar;
import org.quartz.ScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.impl.triggers.AbstractTrigger;
import org.springframework.scheduling.support.CronExpression;

/**
 * A Quartz trigger that fires at the times of a Spring {@link CronExpression}.
 *
 * <p>Spring's cron differs from Quartz's: it needs no {@code ?}, counts Sunday as 0 or 7
 * rather than 1, combines day-of-month and day-of-week, and knows macros such as
 * {@code @hourly}. Translating one dialect into the other is error-prone, so this trigger lets
 * Spring evaluate the expression and lets Quartz store, acquire and cluster the trigger.
 */
public class SpringCronTrigger extends AbstractTrigger<SpringCronTrigger> {

    /** On misfire, fire once now, then follow the schedule. */
    public static final int MISFIRE_INSTRUCTION_FIRE_ONCE_NOW = 1;

    /** On misfire, skip the missed fires and wait for the next scheduled time. */
    public static final int MISFIRE_INSTRUCTION_DO_NOTHING = 2;

    private static final long serialVersionUID = 1L;

    private static final int MAX_CALENDAR_SKIPS = 100_000;

    private String expression;

    private ZoneId zone = ZoneId.systemDefault();

    private transient CronExpression cron;

    private Date startTime;

    private Date endTime;

    private Date nextFireTime;

    private Date previousFireTime;

    /**
     * Returns the Spring cron expression.
     * @return the expression
     */
    public String getExpression() {
        return this.expression;
    }

    /**
     * Sets the Spring cron expression.
     * @param expression a valid Spring cron expression
     */
    public void setExpression(String expression) {
        this.cron = CronExpression.parse(expression);
        this.expression = expression;
    }

    /**
     * Returns the zone the expression is evaluated in.
     * @return the zone
     */
    public ZoneId getZone() {
        return this.zone;
    }

    /**
     * Sets the zone the expression is evaluated in.
     * @param zone the zone
     */
    public void setZone(ZoneId zone) {
        this.zone = zone;
    }

    private CronExpression cron() {
        if (this.cron == null) {
            this.cron = CronExpression.parse(this.expression);
        }
        return this.cron;
    }

    @Override
    public Date getStartTime() {
        return this.startTime;
    }

    @Override
    public void setStartTime(Date startTime) {
        if (startTime == null) {
            throw new IllegalArgumentException("Start time cannot be null");
        }
        if (this.endTime != null && this.endTime.before(startTime)) {
            throw new IllegalArgumentException("End time cannot be before start time");
        }
        this.startTime = startTime;
    }

    @Override
    public Date getEndTime() {
        return this.endTime;
    }

    @Override
    public void setEndTime(Date endTime) {
        if (endTime != null && this.startTime != null && endTime.before(this.startTime)) {
            throw new IllegalArgumentException("End time cannot be before start time");
        }
        this.endTime = endTime;
    }

    @Override
    public Date getNextFireTime() {
        return this.nextFireTime;
    }

    @Override
    public void setNextFireTime(Date nextFireTime) {
        this.nextFireTime = nextFireTime;
    }

    @Override
    public Date getPreviousFireTime() {
        return this.previousFireTime;
    }

    @Override
    public void setPreviousFireTime(Date previousFireTime) {
        this.previousFireTime = previousFireTime;
    }

    @Override
    public Date getFireTimeAfter(Date afterTime) {
        Date after = (afterTime != null) ? afterTime : new Date();
        if (this.startTime != null && after.before(this.startTime)) {
            after = new Date(this.startTime.getTime() - 1);
        }
        ZonedDateTime next = cron().next(ZonedDateTime.ofInstant(after.toInstant(), this.zone));
        if (next == null) {
            return null;
        }
        Date fireTime = Date.from(next.toInstant());
        return (this.endTime != null && fireTime.after(this.endTime)) ? null : fireTime;
    }

    @Override
    public Date getFinalFireTime() {
        return null;
    }

    @Override
    public boolean mayFireAgain() {
        return getNextFireTime() != null;
    }

    @Override
    protected boolean validateMisfireInstruction(int instruction) {
        return instruction >= Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY
                && instruction <= MISFIRE_INSTRUCTION_DO_NOTHING;
    }

    @Override
    public void updateAfterMisfire(Calendar calendar) {
        int instruction = getMisfireInstruction();
        if (instruction == Trigger.MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY) {
            return;
        }
        if (instruction == MISFIRE_INSTRUCTION_DO_NOTHING) {
            setNextFireTime(firstIncluded(getFireTimeAfter(new Date()), calendar));
        } else {
            setNextFireTime(new Date());
        }
    }

    @Override
    public void triggered(Calendar calendar) {
        this.previousFireTime = this.nextFireTime;
        this.nextFireTime = firstIncluded(getFireTimeAfter(this.nextFireTime), calendar);
    }

    @Override
    public void updateWithNewCalendar(Calendar calendar, long misfireThreshold) {
        this.nextFireTime = firstIncluded(getFireTimeAfter(this.previousFireTime), calendar);
        if (this.nextFireTime != null && this.nextFireTime.getTime() < System.currentTimeMillis() - misfireThreshold) {
            this.nextFireTime = firstIncluded(getFireTimeAfter(new Date()), calendar);
        }
    }

    @Override
    public Date computeFirstFireTime(Calendar calendar) {
        this.nextFireTime =
                firstIncluded(getFireTimeAfter(new Date(getStartTime().getTime() - 1)), calendar);
        return this.nextFireTime;
    }

    private Date firstIncluded(Date candidate, Calendar calendar) {
        Date fireTime = candidate;
        // a calendar that excludes every fire time would otherwise make this search endless
        for (int tries = 0;
                fireTime != null && calendar != null && !calendar.isTimeIncluded(fireTime.getTime());
                tries++) {
            if (tries == MAX_CALENDAR_SKIPS) {
                return null;
            }
            fireTime = getFireTimeAfter(fireTime);
        }
        return fireTime;
    }

    @Override
    public ScheduleBuilder<SpringCronTrigger> getScheduleBuilder() {
        return SpringCronScheduleBuilder.cron(this.expression, this.zone)
                .withMisfireInstruction(getMisfireInstruction());
    }
}
