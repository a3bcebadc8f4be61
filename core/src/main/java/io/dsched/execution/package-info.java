/**
 * API of one attempt: the {@code JobContext} a job is given, the {@code ExecutionListener} SPI,
 * and the attempt's record, status, origin and outcome as listeners and the history see them.
 */
package io.dsched.execution;
