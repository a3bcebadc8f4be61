package io.dsched.quartz;

import java.time.ZoneId;
import org.quartz.impl.jdbcjobstore.SimplePropertiesTriggerPersistenceDelegateSupport;
import org.quartz.impl.jdbcjobstore.SimplePropertiesTriggerProperties;
import org.quartz.spi.OperableTrigger;

/**
 * Stores a {@link SpringCronTrigger} in Quartz's {@code SIMPROP_TRIGGERS} table: the expression in
 * the first string column, the zone in the second.
 */
public class SpringCronTriggerPersistenceDelegate extends SimplePropertiesTriggerPersistenceDelegateSupport {

    /** The trigger type written to {@code TRIGGER_TYPE} (at most 8 characters). */
    public static final String TYPE = "DSCRON";

    @Override
    public String getHandledTriggerTypeDiscriminator() {
        return TYPE;
    }

    @Override
    public boolean canHandleTriggerType(OperableTrigger trigger) {
        return trigger instanceof SpringCronTrigger;
    }

    @Override
    protected SimplePropertiesTriggerProperties getTriggerProperties(OperableTrigger trigger) {
        SpringCronTrigger cron = (SpringCronTrigger) trigger;
        SimplePropertiesTriggerProperties properties = new SimplePropertiesTriggerProperties();
        properties.setString1(cron.getExpression());
        properties.setString2(cron.getZone().getId());
        return properties;
    }

    @Override
    protected TriggerPropertyBundle getTriggerPropertyBundle(SimplePropertiesTriggerProperties properties) {
        SpringCronScheduleBuilder builder =
                SpringCronScheduleBuilder.cron(properties.getString1(), ZoneId.of(properties.getString2()));
        return new TriggerPropertyBundle(builder, new String[0], new Object[0]);
    }
}
