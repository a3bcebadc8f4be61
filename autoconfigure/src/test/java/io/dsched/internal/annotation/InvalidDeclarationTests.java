package io.dsched.internal.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.autoconfigure.DschedAutoConfiguration;
import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.execution.JobContext;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class InvalidDeclarationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, DschedAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:invalid;DB_CLOSE_DELAY=-1");

    @Test
    void anInvalidCronFailsStartupNamingTheMethodAndTheField() {
        assertStartupFails(
                InvalidCron.class,
                "BadCron.settle()",
                "invalid cron expression '0 61 * * * *'",
                "MinuteOfHour (valid values 0 - 59)");
    }

    @Test
    void aCronThatNeverFiresFailsStartupNamingTheMethod() {
        assertStartupFails(NeverCron.class, "NeverCron.Jobs.settle()", "cron expression '0 0 0 30 2 *' never fires");
    }

    @Test
    void twoScheduleKindsAtOnceFailStartup() {
        assertStartupFails(CronAndRate.class, "CronAndRate.Jobs.settle()", "cron and fixedRate are");
    }

    @Test
    void noScheduleFailsStartup() {
        assertStartupFails(NoSchedule.class, "NoSchedule.Jobs.settle()", "none is");
    }

    @Test
    void unsupportedParametersFailStartup() {
        assertStartupFails(WrongParameters.class, "WrongParameters.Jobs.settle()", "takes (String, int)");
    }

    @Test
    void aDuplicateJobNameFailsStartupNamingBothMethods() {
        assertStartupFails(
                DuplicateNames.class,
                "job name 'settle' is already used by",
                "Duplicates.first()",
                "Duplicates.second()");
    }

    @Test
    void anUnknownZoneFailsStartup() {
        assertStartupFails(UnknownZone.class, "UnknownZone.Jobs.settle()", "unknown zone 'Mars/Olympus'");
    }

    @Test
    void aMalformedDurationFailsStartup() {
        assertStartupFails(
                MalformedDuration.class, "MalformedDuration.Jobs.settle()", "fixedRate 'often' is not a duration");
    }

    @Test
    void aJitterWithAFixedDelayOrNotShorterThanAFixedRateFailsStartup() {
        assertStartupFails(JitterWithDelay.class, "JitterWithDelay.Jobs.settle()", "a fixed delay times each fire");
        assertStartupFails(JitterOverRate.class, "JitterOverRate.Jobs.settle()", "is not shorter than the fixed rate");
    }

    @Test
    void shardsOutOfRangeOrWithAFixedDelayAndMalformedOrStrayShardParamsFailStartup() {
        assertStartupFails(TooManyShards.class, "TooManyShards.Jobs.settle()", "shards must be 1 to 1000, not 1001");
        assertStartupFails(ShardsWithDelay.class, "ShardsWithDelay.Jobs.settle()", "a fixed delay times each fire");
        assertStartupFails(
                ShardParamPastTheShards.class,
                "ShardParamPastTheShards.Jobs.settle()",
                "shard parameter '2=Shenzhen' is for shard 2, but the shards are 0 to 1");
        assertStartupFails(
                ShardParamWithoutIndex.class,
                "ShardParamWithoutIndex.Jobs.settle()",
                "shard parameter 'Beijing' is not of the form index=value");
        assertStartupFails(ShardParamsWithoutShards.class, "ShardParamsWithoutShards.Jobs.settle()", "but no shards");
    }

    @Test
    void aBroadcastJobWithShardsOrAFixedDelayFailsStartup() {
        assertStartupFails(BroadcastWithShards.class, "BroadcastWithShards.Jobs.refresh()", "it declares no shards");
        assertStartupFails(
                BroadcastWithDelay.class, "BroadcastWithDelay.Jobs.refresh()", "a fixed delay times each fire");
        assertStartupFails(OverlapWithoutShards.class, "OverlapWithoutShards.Jobs.refresh()", "it has neither");
    }

    @Test
    void aMalformedRateOfAHandlerFailsStartup() {
        assertStartupFails(MalformedRate.class, "MalformedRate.Jobs.settle()", "'fifty a second' is not a rate");
    }

    @Test
    void aMalformedQuotaOrAnAdaptiveLimitWithoutALimitOrOutOfRangeFailsStartup() {
        assertStartupFails(MalformedQuota.class, "MalformedQuota.Jobs.settle()", "quota 'ten a day' is not a rate");
        assertStartupFails(AdaptiveWithoutLimit.class, "AdaptiveWithoutLimit.Jobs.settle()", "sets no maxConcurrent");
        assertStartupFails(AdaptiveBelowOne.class, "AdaptiveBelowOne.Jobs.settle()", "min is 1 to maxConcurrent (4)");
        assertStartupFails(AdaptiveRatioOverOne.class, "AdaptiveRatioOverOne.Jobs.settle()", "above 0 and at most 1");
    }

    @Test
    void aKeyOfALimitThatIsNoJsonPointerOrWithoutALimitFailsStartup() {
        assertStartupFails(KeyNotAPointer.class, "KeyNotAPointer.Jobs.settle(", "is a JSON Pointer into the payload");
        assertStartupFails(KeyWithoutLimit.class, "KeyWithoutLimit.Jobs.settle(", "sets no maxConcurrent");
    }

    @Test
    void initialDelayWithCronFailsStartup() {
        assertStartupFails(InitialDelayWithCron.class, "initialDelay is not supported with cron");
    }

    @Test
    void aDisabledCronRegistersNothingAndAPlaceholderIsResolved() {
        this.contextRunner
                .withUserConfiguration(Placeholders.class)
                .withPropertyValues("jobs.rate=2s", "jobs.cron=-")
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    var registry = context.getBean(io.dsched.internal.definition.JobRegistry.class);
                    assertThat(registry.definition("disabled")).isEmpty();
                    assertThat(registry.definition("placeholder")).hasValueSatisfying((job) -> assertThat(
                                    job.schedule().describe())
                            .isEqualTo("fixedRate(PT2S, initialDelay PT0S)"));
                    assertThat(registry.definition("placeholders.defaultName")).isPresent();
                });
    }

    private void assertStartupFails(Class<?> configuration, String... messageParts) {
        this.contextRunner.withUserConfiguration(configuration).run((context) -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure())
                    .rootCause()
                    .isInstanceOf(InvalidJobDefinitionException.class)
                    .message()
                    .contains(messageParts);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class InvalidCron {
        @Bean
        BadCron badCron() {
            return new BadCron();
        }
    }

    static class BadCron {
        @DistributedScheduled(cron = "0 61 * * * *")
        void settle() {}
    }

    @Configuration(proxyBeanMethods = false)
    static class NeverCron {
        @Bean
        NeverCron.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            // the 30th of February
            @DistributedScheduled(cron = "0 0 0 30 2 *")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CronAndRate {
        @Bean
        CronAndRate.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(cron = "0 * * * * *", fixedRate = "5s")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NoSchedule {
        @Bean
        NoSchedule.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WrongParameters {
        @Bean
        WrongParameters.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "5s")
            void settle(String region, int batch) {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class DuplicateNames {
        @Bean
        Duplicates jobs() {
            return new Duplicates();
        }
    }

    static class Duplicates {
        @DistributedScheduled(name = "settle", fixedRate = "5s")
        void first() {}

        @DistributedScheduled(name = "settle", fixedRate = "7s")
        void second(JobContext context) {}
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownZone {
        @Bean
        UnknownZone.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(cron = "0 0 * * * *", zone = "Mars/Olympus")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JitterWithDelay {
        @Bean
        JitterWithDelay.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedDelay = "10s", jitter = "5s")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TooManyShards {
        @Bean
        TooManyShards.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", shards = "1001")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BroadcastWithShards {
        @Bean
        BroadcastWithShards.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", broadcast = true, shards = "3")
            void refresh() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OverlapWithoutShards {
        @Bean
        OverlapWithoutShards.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", overlap = true)
            void refresh() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BroadcastWithDelay {
        @Bean
        BroadcastWithDelay.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedDelay = "10s", broadcast = true)
            void refresh() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ShardsWithDelay {
        @Bean
        ShardsWithDelay.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedDelay = "10s", shards = "4")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ShardParamPastTheShards {
        @Bean
        ShardParamPastTheShards.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(
                    fixedRate = "10s",
                    shards = "2",
                    shardParams = {"0=Beijing", "2=Shenzhen"})
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ShardParamWithoutIndex {
        @Bean
        ShardParamWithoutIndex.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", shards = "2", shardParams = "Beijing")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ShardParamsWithoutShards {
        @Bean
        ShardParamsWithoutShards.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", shardParams = "0=Beijing")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JitterOverRate {
        @Bean
        JitterOverRate.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "10s", jitter = "10s")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KeyNotAPointer {
        @Bean
        KeyNotAPointer.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(value = "settle", maxConcurrent = 2, partitionBy = "tenant")
            void settle(java.util.Map<String, String> payload) {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KeyWithoutLimit {
        @Bean
        KeyWithoutLimit.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(value = "settle", partitionBy = "/tenant")
            void settle(java.util.Map<String, String> payload) {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MalformedQuota {
        @Bean
        MalformedQuota.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(value = "settle", quota = "ten a day")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AdaptiveWithoutLimit {
        @Bean
        AdaptiveWithoutLimit.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(
                    value = "settle",
                    adaptive = @io.dsched.annotation.Adaptive(failureRatio = 0.5))
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AdaptiveBelowOne {
        @Bean
        AdaptiveBelowOne.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(
                    value = "settle",
                    maxConcurrent = 4,
                    adaptive = @io.dsched.annotation.Adaptive(failureRatio = 0.5, min = 0))
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class AdaptiveRatioOverOne {
        @Bean
        AdaptiveRatioOverOne.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(
                    value = "settle",
                    maxConcurrent = 4,
                    adaptive = @io.dsched.annotation.Adaptive(failureRatio = 1.5))
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MalformedRate {
        @Bean
        MalformedRate.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @io.dsched.annotation.JobHandler(value = "settle", rate = "fifty a second")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MalformedDuration {
        @Bean
        MalformedDuration.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(fixedRate = "often")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class InitialDelayWithCron {
        @Bean
        InitialDelayWithCron.Jobs jobs() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(cron = "0 0 * * * *", initialDelay = "5s")
            void settle() {}
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Placeholders {
        @Bean
        Placeholders.Jobs placeholders() {
            return new Jobs();
        }

        static class Jobs {
            @DistributedScheduled(name = "placeholder", fixedRate = "${jobs.rate}")
            void rate() {}

            @DistributedScheduled(name = "disabled", cron = "${jobs.cron}")
            void disabled() {}

            @DistributedScheduled(cron = "@hourly")
            void defaultName() {}
        }
    }
}
