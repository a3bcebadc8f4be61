package io.dsched.internal.handler;

import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.TargetLimits;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Objects;

/**
 * A named handler this node declares.
 *
 * @param name the handler's name
 * @param payloadType the type its payload is read as, or {@code null} if it takes none
 * @param group the node group it runs in, and the one-offs and runtime jobs that run it
 * @param retry how its failures are retried
 * @param timeout longest a run may take, or {@code null}
 * @param source where it was declared, for messages
 * @param maxConcurrent the most of its one-off attempts running at once in the cluster, or 0 for
 *     no limit
 * @param rate the most of its one-off attempts started per period in the cluster, or {@code null}
 * @param partitionBy the JSON Pointer into the payload that {@code maxConcurrent} counts by, or
 *     {@code null} to count the handler as a whole
 * @param priority the order its one-off attempts are claimed in, higher first
 * @param quota the most of its one-off attempts claimed per window in the cluster, or {@code null}
 * @param adaptive how its {@code maxConcurrent} adapts, or {@code null} for a fixed limit
 * @param nodeRate the most of its one-off attempts each node starts per period, or {@code null}
 * @param keyRate the most of its one-off attempts of each key started per period in the cluster, or
 *     {@code null}
 * @param invoker runs it
 */
public record HandlerDefinition(
        String name,
        Type payloadType,
        String group,
        RetryPolicy retry,
        Duration timeout,
        String source,
        int maxConcurrent,
        Rate rate,
        String partitionBy,
        int priority,
        Rate quota,
        TargetLimits.Adaptive adaptive,
        Rate nodeRate,
        Rate keyRate,
        JobTarget.Invoker invoker) {

    public HandlerDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(invoker, "invoker");
        if (maxConcurrent < 0) {
            throw new IllegalArgumentException("maxConcurrent must not be negative: " + maxConcurrent);
        }
    }

    /**
     * The limits it declares: the cluster-wide ones and this node's own.
     * @return its limits
     */
    public TargetLimits limits() {
        return new TargetLimits(
                this.maxConcurrent,
                Rate.perPeriod(this.rate),
                Rate.perPeriod(this.quota),
                Rate.perPeriod(this.keyRate),
                this.adaptive,
                this.partitionBy != null,
                Rate.perPeriod(this.nodeRate));
    }
}
