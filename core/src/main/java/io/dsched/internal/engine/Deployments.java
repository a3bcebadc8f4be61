package io.dsched.internal.engine;

import io.dsched.internal.store.DeploymentStore;

/**
 * The record of deployments, its lock, and what identifies this node's deployment.
 *
 * @param store the record
 * @param lock the lock over it
 * @param build this application's build (its version and time), or {@code null} when it has
 *     no build information; with it, a new build that declares the same jobs as an older one
 *     is a deployment of its own
 */
public record Deployments(DeploymentStore store, DeploymentLock lock, String build) {}
