/** The {@code JobScheduler} API: one-off jobs with a payload, and managing jobs at run time. */
package io.dsched.jobs;
