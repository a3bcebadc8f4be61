package io.dsched.internal.actuate;

import static io.dsched.internal.actuate.EndpointParameters.id;
import static io.dsched.internal.actuate.EndpointParameters.instant;
import static io.dsched.internal.actuate.EndpointParameters.name;
import static io.dsched.internal.actuate.EndpointParameters.pageable;
import static io.dsched.internal.actuate.EndpointParameters.parse;
import static io.dsched.internal.actuate.EndpointParameters.timelineWindow;
import static io.dsched.internal.actuate.EndpointParameters.unknownPath;
import static io.dsched.internal.actuate.EndpointParameters.window;

import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.deadletter.DeadLetterFilter;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.management.ManagementException;
import io.dsched.internal.management.ScheduleInput;
import io.dsched.internal.management.views.PageView;
import io.dsched.internal.store.DeadLetterStatus;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;

/** The {@code dsched} endpoint's reads: which view each path names, for a viewer. */
final class EndpointReads {

    private final ClusterViews cluster;

    private final JobViews jobs;

    private final ExecutionViews executions;

    private final DeadLetters deadLetters;

    private final AuditLog audit;

    private final LimitCommands limits;

    private final EndpointGuard guard;

    EndpointReads(
            ClusterViews cluster,
            JobViews jobs,
            ExecutionViews executions,
            DeadLetters deadLetters,
            AuditLog audit,
            LimitCommands limits,
            EndpointGuard guard) {
        this.cluster = cluster;
        this.jobs = jobs;
        this.executions = executions;
        this.deadLetters = deadLetters;
        this.audit = audit;
        this.limits = limits;
        this.guard = guard;
    }

    Object overview(SecurityContext security, @Nullable String window) {
        return this.guard.read(security, () -> this.cluster.overview(window(window, Duration.ofHours(1))));
    }

    Object list(SecurityContext security, String collection, ListQuery query) {
        if ("me".equals(collection)) {
            return this.guard.me(security);
        }
        return this.guard.read(security, () -> switch (collection) {
            case "timeline" -> this.cluster.timeline(timelineWindow(query.window()));
            case "schedule-preview" -> this.jobs.preview(new ScheduleInput(query.cron(), query.zone(), null));
            case "jobs" -> this.jobs.jobs(window(query.window(), Duration.ofDays(1)));
            case "executions" ->
                this.executions.executions(
                        name("job", query.job()),
                        parse("status", query.status(), ExecutionStatus.class),
                        pageable(query.page(), query.size()));
            case "dead-letters" ->
                PageView.of(this.deadLetters.list(
                        new DeadLetterFilter(
                                name("job", query.job()),
                                parse("status", query.status(), DeadLetterStatus.class),
                                instant("from", query.from()),
                                instant("to", query.to())),
                        pageable(query.page(), query.size())));
            case "audit" ->
                PageView.of(this.audit.list(name("actor", query.actor()), null, pageable(query.page(), query.size())));
            case "limits" -> this.limits.limits();
            default -> throw unknownPath(collection);
        });
    }

    Object one(
            SecurityContext security,
            String collection,
            String id,
            @Nullable String window,
            @Nullable String status,
            @Nullable Integer page,
            @Nullable Integer size,
            @Nullable String fire) {
        return this.guard.read(security, () -> switch (collection) {
            case "jobs" ->
                (fire != null)
                        ? this.jobs.fire(name("job", id), EndpointParameters.fireTime("fire", fire))
                        : this.jobs.job(
                                name("job", id),
                                window(window, Duration.ofDays(1)),
                                parse("status", status, ExecutionStatus.class),
                                pageable(page, size));
            case "executions" -> this.executions.execution(id("id", id));
            case "dead-letters" ->
                this.deadLetters
                        .find(id("id", id))
                        .orElseThrow(() -> ManagementException.notFound("No dead letter with id " + id));
            default -> throw unknownPath(collection);
        });
    }

    /** The query parameters of a list, each of them used by some lists only. */
    record ListQuery(
            @Nullable String window,
            @Nullable String job,
            @Nullable String status,
            @Nullable String from,
            @Nullable String to,
            @Nullable String actor,
            @Nullable String cron,
            @Nullable String zone,
            @Nullable Integer page,
            @Nullable Integer size) {}
}
