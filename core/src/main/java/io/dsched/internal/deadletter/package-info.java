/** Internal: fires that failed for good: kept in {@code dsched_dead_letter} for an operator to replay or discard. */
package io.dsched.internal.deadletter;
