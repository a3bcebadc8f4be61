/**
 * Internal: the clustered engine: this node's Quartz scheduler configured for dsched on the store of
 * {@code io.dsched.quartz}, the dispatch of its fires, and the synchronisation of job definitions
 * into the shared store.
 */
package io.dsched.internal.engine;
