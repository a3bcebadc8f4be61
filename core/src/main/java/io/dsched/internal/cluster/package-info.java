/** Internal: membership of the cluster: heartbeats in database time, dead nodes, and taking over their work. */
package io.dsched.internal.cluster;
