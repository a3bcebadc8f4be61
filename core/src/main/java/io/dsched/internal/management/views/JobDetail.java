package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionRecord;
import java.util.List;

/**
 * One job with its recent attempts.
 *
 * @param job the job
 * @param executions a page of its attempts, newest first
 * @param fires its latest fires as wholes, the latest first, if it is sharded; else empty
 * @param shards the shards its fires are split into now, if it is sharded (not broadcast); else
 *     {@code null}
 */
public record JobDetail(Job job, PageView<ExecutionRecord> executions, List<Fire> fires, Shards shards) {

    public JobDetail {
        fires = List.copyOf(fires);
    }
}
