package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.notify.NotificationListener;
import io.dsched.internal.notify.WebhookNotifier;
import io.dsched.notify.Notification;
import io.dsched.notify.Notifier;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class DschedNotifyAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DschedAutoConfiguration.class,
                    DschedNotifyAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:notify;DB_CLOSE_DELAY=-1");

    @Test
    void withoutAUrlThereIsNoWebhookButNotifiersOfTheApplicationHearOfDeadLetters() {
        this.contextRunner.withUserConfiguration(RecordingNotifier.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WebhookNotifier.class);
            ExecutionRecord attempt = ExecutionRecord.claim("settle", Instant.parse("2030-01-01T00:00:00Z"), "n", null)
                    .withId(7);

            context.getBean(NotificationListener.class)
                    .finished(attempt, Outcome.DEAD_LETTERED, Duration.ZERO, new IllegalStateException("down"));

            assertThat(context.getBean(RecordingNotifier.class).received)
                    .extracting(Notification::id)
                    .containsExactly("dead-lettered-7");
        });
    }

    @Test
    void anEmptyUrlIsNoWebhook() {
        this.contextRunner.withPropertyValues("dsched.notify.webhook.url=").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(WebhookNotifier.class);
        });
    }

    @Test
    void aUrlAndASecretMakeAWebhookThatTheApplicationsNotifiersJoin() {
        this.contextRunner
                .withUserConfiguration(RecordingNotifier.class)
                .withPropertyValues(
                        "dsched.notify.webhook.url=https://hooks.example.com/dsched", "dsched.notify.webhook.secret=s")
                .run((context) -> {
                    assertThat(context).hasSingleBean(WebhookNotifier.class);
                    assertThat(context.getBeansOfType(Notifier.class)).hasSize(2);
                });
    }

    @Test
    void aUrlWithoutASecretFailsNamingTheProperty() {
        this.contextRunner
                .withPropertyValues("dsched.notify.webhook.url=https://hooks.example.com/dsched")
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("dsched.notify.webhook.secret is not");
                });
    }

    @Test
    void aUrlThatIsNotHttpFailsNamingTheProperty() {
        this.contextRunner
                .withPropertyValues(
                        "dsched.notify.webhook.url=ftp://hooks.example.com", "dsched.notify.webhook.secret=s")
                .run((context) -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("dsched.notify.webhook.url must be an http or https URL"));
    }

    @Test
    void aUrlWithoutAHostFailsNamingTheProperty() {
        this.contextRunner
                .withPropertyValues("dsched.notify.webhook.url=https:alerts", "dsched.notify.webhook.secret=s")
                .run((context) -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("dsched.notify.webhook.url must be an http or https URL with a host"));
    }

    @Test
    void aFailureStreakBelowOneFailsNamingTheProperty() {
        this.contextRunner.withPropertyValues("dsched.notify.failure-streak=0").run((context) -> assertThat(
                        context.getStartupFailure())
                .rootCause()
                .hasMessageContaining("dsched.notify.failure-streak must be at least 1"));
    }

    @Test
    void backsOffWhenTheApplicationDefinesItsOwnWebhookNotifier() {
        this.contextRunner
                .withUserConfiguration(OwnWebhook.class)
                .withPropertyValues("dsched.notify.webhook.url=https://hooks.example.com/dsched")
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(WebhookNotifier.class);
                    assertThat(context).hasBean("ownWebhook");
                });
    }

    @Test
    void isOffWhenDschedIs() {
        this.contextRunner.withPropertyValues("dsched.enabled=false").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(NotificationListener.class);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class RecordingNotifier implements Notifier {

        final List<Notification> received = new CopyOnWriteArrayList<>();

        @Override
        public void notify(Notification notification) {
            this.received.add(notification);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnWebhook {

        @Bean
        WebhookNotifier ownWebhook() {
            return new WebhookNotifier(
                    URI.create("https://hooks.example.com/own"),
                    "own-secret",
                    EnumSet.allOf(Notification.Kind.class),
                    Duration.ofSeconds(1),
                    1,
                    Duration.ofSeconds(1));
        }
    }
}
