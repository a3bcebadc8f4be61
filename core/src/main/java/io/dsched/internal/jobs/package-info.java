/**
 * Internal: the parts of the {@code JobScheduler} (submissions, manual runs, control of scheduled
 * jobs, run-time jobs, cancels). No compatibility promise.
 */
package io.dsched.internal.jobs;
