/**
 * Internal: what a job is (its name, schedule, guard settings and the method it invokes) and the
 * registry of this node's jobs. No compatibility promise.
 */
package io.dsched.internal.definition;
