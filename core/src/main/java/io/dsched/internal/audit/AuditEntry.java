package io.dsched.internal.audit;

import java.time.Instant;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One row of {@code dsched_audit}: one write asked of the management endpoint, granted or not.
 *
 * @param id generated id
 * @param actedAt when it was asked, in this node's clock
 * @param actor who asked: the authenticated principal, or {@code anonymous}
 * @param action what was asked, for example {@code job.pause} or {@code dead-letter.replay}
 * @param target what it was asked of: a job's name or dead letters' ids
 * @param beforeValue the state before, as JSON, or {@code null}
 * @param afterValue the state after, as JSON, or {@code null} when nothing changed
 * @param reason the reason the actor gave, or {@code null}
 * @param remoteAddress the address the request came from, or {@code null} when unknown
 * @param result the HTTP status it was answered with
 * @param detail why it was refused, or {@code null}
 * @param nodeId the node that answered
 */
@Table("dsched_audit")
public record AuditEntry(
        @Id Long id,
        Instant actedAt,
        String actor,
        String action,
        String target,
        String beforeValue,
        String afterValue,
        String reason,
        String remoteAddress,
        int result,
        String detail,
        String nodeId) {}
