package io.dsched.internal.management.views;

import java.time.Duration;

/**
 * A job's attempts within a window.
 *
 * @param window the window
 * @param runs attempts that started in it and finished
 * @param succeeded of which succeeded
 * @param failed of which failed, timed out or were dead-lettered
 * @param successRate succeeded over runs, or {@code null} without runs
 * @param p95 the 95th percentile of their durations, or {@code null}
 */
public record Stats(Duration window, long runs, long succeeded, long failed, Double successRate, Duration p95) {}
