package io.dsched.quartz;

import java.time.ZoneId;
import org.quartz.ScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.spi.MutableTrigger;

/**
 * Builds a {@link SpringCronTrigger}, for use with Quartz's {@code TriggerBuilder}.
 */
public final class SpringCronScheduleBuilder extends ScheduleBuilder<SpringCronTrigger> {

    private final String expression;

    private final ZoneId zone;

    private int misfireInstruction = SpringCronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW;

    private SpringCronScheduleBuilder(String expression, ZoneId zone) {
        this.expression = expression;
        this.zone = zone;
    }

    /**
     * Starts a schedule for a Spring cron expression.
     * @param expression the Spring cron expression
     * @param zone the zone it is evaluated in
     * @return a builder
     */
    public static SpringCronScheduleBuilder cron(String expression, ZoneId zone) {
        return new SpringCronScheduleBuilder(expression, zone);
    }

    /**
     * Skips fires missed while no node could run them; the next fire is the next scheduled time.
     * @return this builder
     */
    public SpringCronScheduleBuilder withMisfireHandlingInstructionDoNothing() {
        this.misfireInstruction = SpringCronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING;
        return this;
    }

    /**
     * Runs fires missed while no node could run them once, as soon as a node can.
     * @return this builder
     */
    public SpringCronScheduleBuilder withMisfireHandlingInstructionFireOnceNow() {
        this.misfireInstruction = SpringCronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW;
        return this;
    }

    SpringCronScheduleBuilder withMisfireInstruction(int instruction) {
        this.misfireInstruction = (instruction == Trigger.MISFIRE_INSTRUCTION_SMART_POLICY)
                ? SpringCronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW
                : instruction;
        return this;
    }

    @Override
    protected MutableTrigger build() {
        SpringCronTrigger trigger = new SpringCronTrigger();
        trigger.setExpression(this.expression);
        trigger.setZone(this.zone);
        trigger.setMisfireInstruction(this.misfireInstruction);
        return trigger;
    }
}
