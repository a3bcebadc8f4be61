/**
 * The {@code @DistributedScheduled} annotation and the post-processor that turns annotated bean
 * methods into job definitions.
 */
package io.dsched.annotation;
