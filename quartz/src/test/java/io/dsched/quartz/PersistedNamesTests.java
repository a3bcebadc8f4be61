package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.quartz.TriggerBuilder;
import org.quartz.impl.jdbcjobstore.SimplePropertiesTriggerProperties;
import org.quartz.spi.OperableTrigger;

/**
 * What outlives a release: the rows Quartz wrote with one version are read by the next during a
 * rolling deployment, and a plain Quartz application names the extension's classes in its
 * properties. Renaming any of these breaks a running cluster.
 */
class PersistedNamesTests {

    @Test
    void aStoredTriggerKeepsItsTypeAndColumnsSoThatTheNextVersionReadsIt() {
        SpringCronTriggerPersistenceDelegate delegate = new SpringCronTriggerPersistenceDelegate();
        assertThat(delegate.getHandledTriggerTypeDiscriminator()).isEqualTo("DSCRON");
        OperableTrigger trigger = (OperableTrigger) TriggerBuilder.newTrigger()
                .withIdentity("t")
                .withSchedule(SpringCronScheduleBuilder.cron("0 */5 * * * *", ZoneId.of("Europe/Berlin")))
                .build();
        SimplePropertiesTriggerProperties columns = new Columns().of(trigger);
        assertThat(columns.getString1()).isEqualTo("0 */5 * * * *");
        assertThat(columns.getString2()).isEqualTo("Europe/Berlin");
    }

    @Test
    void theClassesAQuartzApplicationNamesInItsPropertiesKeepTheirNames() {
        assertThat(SkipLockedJobStore.class.getName()).isEqualTo("io.dsched.quartz.SkipLockedJobStore");
        assertThat(SpringCronTriggerPersistenceDelegate.class.getName())
                .isEqualTo("io.dsched.quartz.SpringCronTriggerPersistenceDelegate");
    }

    /** Reads the columns the delegate writes, through the method Quartz calls. */
    private static final class Columns extends SpringCronTriggerPersistenceDelegate {

        SimplePropertiesTriggerProperties of(OperableTrigger trigger) {
            return getTriggerProperties(trigger);
        }
    }
}
