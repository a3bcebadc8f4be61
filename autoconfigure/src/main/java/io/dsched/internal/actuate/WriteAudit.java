package io.dsched.internal.actuate;

import io.dsched.internal.audit.AuditEntry;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.audit.RefusedWrites;
import java.security.Principal;
import java.time.Clock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Records a write of the {@code dsched} endpoint in {@code dsched_audit}: who, what, on which
 * target, the values before and after (sanitized by the caller), why, from where and its result.
 * A failing audit log is logged and does not change the answer.
 */
final class WriteAudit {

    private static final Logger logger = LoggerFactory.getLogger(DschedEndpoint.class);

    private final AuditLog audit;

    private final Supplier<String> remoteAddress = new RemoteAddress();

    private final String nodeId;

    private final Clock clock = Clock.systemUTC();

    private final JsonMapper json = JsonMapper.builder().build();

    WriteAudit(AuditLog audit, String nodeId) {
        this.audit = audit;
        this.nodeId = nodeId;
    }

    void record(
            SecurityContext security,
            String action,
            @Nullable String target,
            @Nullable Object before,
            @Nullable Object after,
            @Nullable String reason,
            int result,
            @Nullable String detail) {
        try {
            this.audit.record(new AuditEntry(
                    null,
                    this.clock.instant(),
                    actor(security),
                    action,
                    target,
                    toJson(before),
                    toJson(after),
                    reason,
                    this.remoteAddress.get(),
                    result,
                    detail,
                    this.nodeId));
        } catch (RuntimeException ex) {
            logger.error("Could not write the audit entry of {} on {} ({}): {}", action, target, result, ex.toString());
        }
    }

    static String actor(SecurityContext security) {
        Principal principal = security.getPrincipal();
        return (principal != null) ? principal.getName() : RefusedWrites.ANONYMOUS;
    }

    private @Nullable String toJson(@Nullable Object value) {
        return (value != null) ? this.json.writeValueAsString(value) : null;
    }
}
