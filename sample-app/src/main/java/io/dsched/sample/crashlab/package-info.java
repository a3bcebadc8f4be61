/**
 * Jobs for the crash tests, active with the {@code crashlab} profile only: a long job, jobs whose first
 * attempt fails, and a job to reschedule. Each records its completed runs in {@code crashlab_run}.
 */
package io.dsched.sample.crashlab;
