/** Internal: keeping the execution history to its retention: the cluster-wide housekeeping job. */
package io.dsched.internal.history;
