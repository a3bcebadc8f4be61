package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.quartz.TriggerBuilder;
import org.quartz.impl.calendar.WeeklyCalendar;
import org.quartz.spi.OperableTrigger;

class SpringCronTriggerTests {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void sundayIsZeroOrSevenOrSunAsInSpringNotOneAsInQuartz() {
        Instant monday = Instant.parse("2026-11-30T00:00:00Z");
        for (String sunday : List.of("0", "7", "SUN")) {
            List<ZonedDateTime> fires = fireTimes("0 0 12 * * " + sunday, ZoneId.of("UTC"), monday, 2);
            assertThat(fires).extracting(ZonedDateTime::getDayOfWeek).containsOnly(java.time.DayOfWeek.SUNDAY);
            assertThat(fires.get(0)).isEqualTo(ZonedDateTime.parse("2026-12-06T12:00Z[UTC]"));
        }
    }

    @Test
    void dayOfMonthAndDayOfWeekNeedNoQuestionMark() {
        List<ZonedDateTime> fires =
                fireTimes("0 0 0 13 * FRI", ZoneId.of("UTC"), Instant.parse("2026-01-01T00:00:00Z"), 2);
        assertThat(fires)
                .containsExactly(
                        ZonedDateTime.parse("2026-02-13T00:00Z[UTC]"), ZonedDateTime.parse("2026-03-13T00:00Z[UTC]"));
    }

    @Test
    void macrosAreUnderstood() {
        List<ZonedDateTime> fires = fireTimes("@hourly", ZoneId.of("UTC"), Instant.parse("2026-01-01T10:15:00Z"), 2);
        assertThat(fires)
                .containsExactly(
                        ZonedDateTime.parse("2026-01-01T11:00Z[UTC]"), ZonedDateTime.parse("2026-01-01T12:00Z[UTC]"));
    }

    @Test
    void theZoneDecidesTheInstantAcrossADaylightSavingChange() {
        // Berlin leaves summer time on 25 October 2026: 02:30 local is UTC+2 before, UTC+1 after
        List<ZonedDateTime> fires = fireTimes("0 30 9 * * *", BERLIN, Instant.parse("2026-10-24T00:00:00Z"), 2);
        assertThat(fires)
                .extracting(ZonedDateTime::toInstant)
                .containsExactly(Instant.parse("2026-10-24T07:30:00Z"), Instant.parse("2026-10-25T08:30:00Z"));
    }

    @Test
    void aStartTimeOnAFireTimeFiresThen() {
        OperableTrigger trigger = trigger("0 * * * * *", ZoneId.of("UTC"), Instant.parse("2026-01-01T10:00:00Z"));
        assertThat(trigger.computeFirstFireTime(null)).isEqualTo(Date.from(Instant.parse("2026-01-01T10:00:00Z")));
    }

    @Test
    void aCalendarExcludesFireTimes() {
        WeeklyCalendar weekdaysOnly = new WeeklyCalendar();
        weekdaysOnly.setTimeZone(TimeZone.getTimeZone("UTC"));
        OperableTrigger trigger = trigger("0 0 12 * * *", ZoneId.of("UTC"), Instant.parse("2026-11-28T00:00:00Z"));
        Date first = trigger.computeFirstFireTime(weekdaysOnly);
        // 28 and 29 November 2026 are a Saturday and a Sunday
        assertThat(first).isEqualTo(Date.from(Instant.parse("2026-11-30T12:00:00Z")));
    }

    @Test
    void misfiresFireOnceNowByDefaultOrWaitForTheNextTimeIfAsked() {
        Instant past = Instant.parse("2020-01-01T00:00:00Z");
        OperableTrigger fireNow = trigger("0 0 * * * *", ZoneId.of("UTC"), past);
        fireNow.computeFirstFireTime(null);
        long before = System.currentTimeMillis();
        fireNow.updateAfterMisfire(null);
        assertThat(fireNow.getNextFireTime().getTime()).isBetween(before, System.currentTimeMillis());

        OperableTrigger skip = (OperableTrigger) TriggerBuilder.newTrigger()
                .withSchedule(SpringCronScheduleBuilder.cron("0 0 * * * *", ZoneId.of("UTC"))
                        .withMisfireHandlingInstructionDoNothing())
                .startAt(Date.from(past))
                .build();
        skip.computeFirstFireTime(null);
        skip.updateAfterMisfire(null);
        Instant next = skip.getNextFireTime().toInstant();
        assertThat(next).isAfter(Instant.now());
        assertThat(next.getEpochSecond() % 3600).isZero();
    }

    @Test
    void itsScheduleBuilderRebuildsTheSameTrigger() {
        SpringCronTrigger trigger = (SpringCronTrigger) trigger("0 0 2 * * *", BERLIN, Instant.now());
        SpringCronTrigger copy = (SpringCronTrigger) TriggerBuilder.newTrigger()
                .withSchedule(trigger.getScheduleBuilder())
                .build();
        assertThat(copy.getExpression()).isEqualTo("0 0 2 * * *");
        assertThat(copy.getZone()).isEqualTo(BERLIN);
        assertThat(copy.getMisfireInstruction()).isEqualTo(SpringCronTrigger.MISFIRE_INSTRUCTION_FIRE_ONCE_NOW);
    }

    private static List<ZonedDateTime> fireTimes(String expression, ZoneId zone, Instant start, int count) {
        OperableTrigger trigger = trigger(expression, zone, start);
        List<ZonedDateTime> fires = new ArrayList<>();
        trigger.computeFirstFireTime(null);
        for (int i = 0; i < count; i++) {
            fires.add(trigger.getNextFireTime().toInstant().atZone(zone));
            trigger.triggered(null);
        }
        return fires;
    }

    private static OperableTrigger trigger(String expression, ZoneId zone, Instant start) {
        return (OperableTrigger) TriggerBuilder.newTrigger()
                .withSchedule(SpringCronScheduleBuilder.cron(expression, zone))
                .startAt(Date.from(start))
                .build();
    }
}
