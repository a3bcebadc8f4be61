package io.dsched.internal.management;

/**
 * What a management write did, for its response and its audit entry.
 *
 * @param target what it acted on: a job's name or dead letters' ids
 * @param before the state before, or {@code null}
 * @param after the state after
 */
public record Change(String target, Object before, Object after) {}
