/** API: {@code @DistributedScheduled} on a bean method schedules it; {@code @JobHandler} names it for one-off and run-time jobs. */
package io.dsched.annotation;
