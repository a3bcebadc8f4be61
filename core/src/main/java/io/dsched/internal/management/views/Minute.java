package io.dsched.internal.management.views;

import java.time.Duration;
import java.time.Instant;

/**
 * The attempts that started within one minute.
 *
 * @param at the start of the minute
 * @param started attempts that started in it
 * @param succeeded of which succeeded
 * @param failed of which failed, timed out or were dead-lettered
 * @param successRate succeeded over finished, or {@code null} when none finished
 * @param lagP50 the median of the fire lag of scheduled fires (start minus scheduled time), or
 *     {@code null} without scheduled fires
 * @param lagP95 the 95th percentile of that lag, or {@code null}
 */
public record Minute(
        Instant at, long started, long succeeded, long failed, Double successRate, Duration lagP50, Duration lagP95) {}
