package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionRecord;

/**
 * One job with its recent attempts.
 *
 * @param job the job
 * @param executions a page of its attempts, newest first
 */
public record JobDetail(Job job, PageView<ExecutionRecord> executions) {}
