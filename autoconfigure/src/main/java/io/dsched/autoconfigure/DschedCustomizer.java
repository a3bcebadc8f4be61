package io.dsched.autoconfigure;

/**
 * Callback to customize the settings of this node's engine, for what the {@code dsched.*}
 * properties do not cover: most often a Quartz property such as
 * {@code org.quartz.threadPool.threadPriority} or {@code org.quartz.scheduler.dbFailureRetryInterval}.
 *
 * <p>Every bean of this type is called, in the order of {@link org.springframework.core.Ordered}
 * and {@link org.springframework.core.annotation.Order @Order}, after the settings have been
 * derived from the bound {@link DschedProperties} and before the scheduler is created, so a
 * customizer has the last word and sees what earlier ones changed. The settings that the
 * cluster's correctness rests on cannot be changed this way; trying fails start-up with the name
 * of the property to use instead.
 *
 * <pre>{@code
 * @Bean
 * DschedCustomizer lowerPriority() {
 *     return (settings) -> settings.setQuartzProperty("org.quartz.threadPool.threadPriority", "4");
 * }
 * }</pre>
 *
 * @see DschedEngineSettings
 */
@FunctionalInterface
public interface DschedCustomizer {

    /**
     * Customizes the settings the engine is about to be built from.
     * @param settings the settings, to read and to change
     */
    void customize(DschedEngineSettings settings);
}
