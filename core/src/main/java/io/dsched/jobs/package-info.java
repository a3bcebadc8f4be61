/** API: the {@code JobScheduler}, one-off jobs with a payload, and managing jobs at run time. */
package io.dsched.jobs;
