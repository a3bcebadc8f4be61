/** A REST API to pause, resume, trigger and reschedule the scheduled jobs at run time. */
package io.dsched.sample.jobs;
