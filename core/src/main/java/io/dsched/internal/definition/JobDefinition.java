package io.dsched.internal.definition;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.retry.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A job known to this node: its unique name, its schedule, how its failures are retried, the
 * settings of its overlap guard, and what it runs.
 *
 * @param name unique name of the job in the cluster
 * @param schedule when it fires
 * @param misfire what becomes of fires no node could start in time
 * @param group the node group it runs in: only nodes that serve it run its fires
 * @param retry how failed attempts are retried
 * @param timeout longest a run may take before it is interrupted, or {@code null} for no limit
 * @param lockAtMostFor longest time a run holds the job's lock, or {@code null} for the configured default
 * @param lockAtLeastFor shortest time a run holds the job's lock, or {@code null} for the configured default
 * @param jitter the window each fire's start is spread over by an offset of its own, or {@code null}
 *     to start each fire at its time
 * @param shards how each fire is split into shards, or {@code null} for a job without shards
 * @param source where the job was declared, for messages (for example {@code OrderJobs.settle()})
 * @param invoker what a run executes
 */
public record JobDefinition(
        String name,
        Schedule schedule,
        MisfirePolicy misfire,
        String group,
        RetryPolicy retry,
        Duration timeout,
        Duration lockAtMostFor,
        Duration lockAtLeastFor,
        Duration jitter,
        Sharding shards,
        String source,
        JobInvoker invoker) {

    public JobDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(misfire, "misfire");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(invoker, "invoker");
    }

    /**
     * Describes everything that decides when the job fires, such as
     * {@code cron(0 0 * * * *, UTC), misfire RUN_ONCE}.
     * @return the description
     */
    public String describe() {
        return this.schedule.describe() + ", misfire " + this.misfire;
    }

    /**
     * A fingerprint of everything that decides when the job fires; nodes compare it to learn
     * whether they declare the same definition.
     * @return a hex SHA-256 digest of {@link #describe()}
     */
    public String fingerprint() {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(describe().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is not available", ex);
        }
    }
}
