/**
 * Internal: the queue of waiting attempts (retries, recoveries, replays, manual triggers and one-off jobs):
 * rows of {@code dsched_execution} that any node claims once they fall due.
 */
package io.dsched.internal.queue;
