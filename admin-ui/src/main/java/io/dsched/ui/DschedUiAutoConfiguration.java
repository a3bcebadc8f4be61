package io.dsched.ui;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The admin UI's properties. The UI itself is served by {@link DschedUiManagementContextConfiguration}
 * in the management context, so that it follows the Actuator endpoints to the management port when
 * one is set.
 */
@AutoConfiguration
@EnableConfigurationProperties(DschedUiProperties.class)
public final class DschedUiAutoConfiguration {}
