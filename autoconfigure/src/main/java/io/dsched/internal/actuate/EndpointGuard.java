package io.dsched.internal.actuate;

import io.dsched.internal.actuate.EndpointRoles.Level;
import io.dsched.internal.actuate.EndpointRoles.Refusal;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.audit.RefusedWrites;
import io.dsched.internal.management.Change;
import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;

/**
 * What stands between a caller and the {@code dsched} endpoint's operations: the role each needs,
 * the masking of the values it answers with, and the audit of every write (of the refused ones,
 * those of a user at most once a minute, those without a user not at all, see
 * {@link RefusedWrites}). A refusal or a failure is thrown as an {@link EndpointFailure}.
 */
public final class EndpointGuard {

    private final EndpointRoles roles;

    private final RefusedWrites refusedWrites;

    private final ValueMasking values;

    private final WriteAudit audit;

    private final String nodeId;

    /**
     * Creates the guard.
     * @param roles who may do what
     * @param refusedWrites which refused writes it records
     * @param values which values callers see
     * @param audit where it records writes
     * @param nodeId this node
     */
    public EndpointGuard(
            EndpointRoles roles, RefusedWrites refusedWrites, ValueMasking values, AuditLog audit, String nodeId) {
        this.roles = roles;
        this.refusedWrites = refusedWrites;
        this.values = values;
        this.audit = new WriteAudit(audit, nodeId);
        this.nodeId = nodeId;
    }

    /** Who asks and what they may do; any caller the endpoint admits may ask. */
    Map<String, Object> me(SecurityContext security) {
        Refusal refusal = this.roles.check(security, Level.NONE);
        if (refusal != null) {
            throw EndpointFailure.refused(refusal);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        Principal principal = security.getPrincipal();
        body.put("name", (principal != null) ? principal.getName() : null);
        body.put("roles", this.roles.levels(security));
        body.put("writes", this.roles.writesExposed());
        return body;
    }

    /** A read, for a viewer, with its values shown or masked as the caller may see them. */
    Object read(SecurityContext security, Supplier<Object> read) {
        Refusal refusal = this.roles.check(security, Level.VIEWER);
        if (refusal != null) {
            throw EndpointFailure.refused(refusal);
        }
        try {
            return MaskedViews.view(read.get(), shownTo(security));
        } catch (RuntimeException ex) {
            throw EndpointFailure.of(ex, this.nodeId);
        }
    }

    /** A write, for a caller of the given level, audited whether it succeeds or fails. */
    Map<String, Object> write(
            SecurityContext security,
            String action,
            @Nullable String target,
            @Nullable String reason,
            Level level,
            Supplier<Change> change) {
        Refusal refusal = this.roles.check(security, level);
        if (refusal != null) {
            if (this.refusedWrites.refused(WriteAudit.actor(security), refusal.status())) {
                this.audit.record(security, action, target, null, null, reason, refusal.status(), refusal.reason());
            }
            throw EndpointFailure.refused(refusal);
        }
        Change done;
        try {
            EndpointParameters.reason(reason);
            done = change.get();
        } catch (RuntimeException ex) {
            EndpointFailure failure = EndpointFailure.of(ex, this.nodeId);
            this.audit.record(
                    security,
                    action,
                    target,
                    null,
                    null,
                    reason,
                    failure.status(),
                    String.valueOf(failure.getMessage()));
            throw failure;
        }
        Change sanitized = this.values.sanitized(done);
        this.audit.record(
                security, action, sanitized.target(), sanitized.before(), sanitized.after(), reason, 200, null);
        ShownValues shown = shownTo(security);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", action);
        body.put("target", done.target());
        body.put("before", shown.change(sanitized.before()));
        body.put("after", shown.change(sanitized.after()));
        body.put("valuesMasked", shown.masked());
        return body;
    }

    private ShownValues shownTo(SecurityContext security) {
        return this.values.forCaller(this.roles.grants(security, Level.OPERATOR));
    }
}
