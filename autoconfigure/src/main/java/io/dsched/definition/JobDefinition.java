package io.dsched.definition;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A job known to this node: its unique name, its schedule, the settings of its overlap guard,
 * and what it runs.
 *
 * @param name unique name of the job in the cluster
 * @param schedule when it fires
 * @param lockAtMostFor longest time a run holds the job's lock, or {@code null} for the configured default
 * @param lockAtLeastFor shortest time a run holds the job's lock, or {@code null} for the configured default
 * @param source where the job was declared, for messages (for example {@code OrderJobs.settle()})
 * @param invoker what a run executes
 */
public record JobDefinition(
        String name,
        Schedule schedule,
        Duration lockAtMostFor,
        Duration lockAtLeastFor,
        String source,
        JobInvoker invoker) {

    public JobDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(invoker, "invoker");
    }

    /**
     * A fingerprint of everything that decides when the job fires; nodes compare it to learn
     * whether they declare the same definition.
     * @return a hex SHA-256 digest of the schedule's description
     */
    public String fingerprint() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(this.schedule.describe().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is not available", ex);
        }
    }
}
