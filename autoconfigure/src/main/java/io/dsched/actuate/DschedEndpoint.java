package io.dsched.actuate;

import io.dsched.actuate.EndpointRoles.Level;
import io.dsched.actuate.EndpointRoles.Refusal;
import io.dsched.audit.AuditEntry;
import io.dsched.audit.AuditLog;
import io.dsched.audit.RefusedWrites;
import io.dsched.deadletter.DeadLetterFilter;
import io.dsched.deadletter.DeadLetters;
import io.dsched.jobs.JsonProblem;
import io.dsched.jobs.UnknownJobException;
import io.dsched.management.Change;
import io.dsched.management.ClusterViews;
import io.dsched.management.DeadLetterCommands;
import io.dsched.management.ExecutionViews;
import io.dsched.management.JobCommands;
import io.dsched.management.JobViews;
import io.dsched.management.ManagementException;
import io.dsched.management.ScheduleInput;
import io.dsched.management.Views.PageView;
import io.dsched.store.DeadLetterStatus;
import io.dsched.store.ExecutionStatus;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code dsched} endpoint, under {@code /actuator/dsched}: the cluster, its jobs, their
 * executions, dead letters and the audit log to read; pause, resume, trigger, reschedule, change
 * parameters, replay, discard and cancel to write. The README documents every path and shape.
 *
 * <p>Every write is recorded in {@code dsched_audit}; of the refused ones, those of a user at most
 * once a minute, those without a user not at all (see {@link RefusedWrites}). Errors answer 400 for bad
 * input (naming the field), 401 or 403 for a missing role, 404 for an unknown thing and 409 for a
 * conflicting change, with a body that says why and never a stack trace.
 *
 * <p>Payloads, parameters, captured log lines and stack traces are shown or masked as
 * {@link ValueMasking} decides for the caller; keys that look secret are masked in every answer and
 * in the audit log.
 */
@WebEndpoint(id = DschedEndpoint.ID)
public class DschedEndpoint {

    /** The endpoint's id. */
    public static final String ID = "dsched";

    static final int MAX_PAGE_SIZE = 200;

    static final int MAX_IDS = 500;

    static final int MAX_REASON = 1_000;

    static final int MAX_NAME = 200;

    static final int MAX_PARAMS = 64 * 1024;

    private static final Duration MAX_WINDOW = Duration.ofDays(31);

    private static final Duration MAX_TIMELINE = Duration.ofDays(1);

    private static final Instant EARLIEST = Instant.EPOCH;

    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private static final Logger logger = LoggerFactory.getLogger(DschedEndpoint.class);

    private final ClusterViews cluster;

    private final JobViews jobs;

    private final ExecutionViews executions;

    private final JobCommands commands;

    private final DeadLetterCommands deadLetterCommands;

    private final DeadLetters deadLetters;

    private final AuditLog audit;

    private final RefusedWrites refusedWrites;

    private final EndpointRoles roles;

    private final ValueMasking values;

    private final Supplier<String> remoteAddress;

    private final String nodeId;

    private final Clock clock;

    private final JsonMapper json = JsonMapper.builder().build();

    /**
     * Creates the endpoint.
     * @param cluster the cluster's views
     * @param jobs the jobs' views
     * @param executions the attempts' views
     * @param commands what it changes of jobs and attempts
     * @param deadLetterCommands what it changes of dead letters
     * @param deadLetters the dead letters
     * @param audit where it records writes
     * @param refusedWrites which refused writes it records
     * @param roles who may do what
     * @param values which values callers see
     * @param nodeId this node
     */
    public DschedEndpoint(
            ClusterViews cluster,
            JobViews jobs,
            ExecutionViews executions,
            JobCommands commands,
            DeadLetterCommands deadLetterCommands,
            DeadLetters deadLetters,
            AuditLog audit,
            RefusedWrites refusedWrites,
            EndpointRoles roles,
            ValueMasking values,
            String nodeId) {
        this.cluster = cluster;
        this.jobs = jobs;
        this.executions = executions;
        this.commands = commands;
        this.deadLetterCommands = deadLetterCommands;
        this.deadLetters = deadLetters;
        this.audit = audit;
        this.refusedWrites = refusedWrites;
        this.roles = roles;
        this.values = values;
        this.remoteAddress = new RemoteAddress();
        this.nodeId = nodeId;
        this.clock = Clock.systemUTC();
    }

    /**
     * Returns a filter that leaves this endpoint's write operations out unless they are exposed.
     * @param roles who may do what
     * @return the filter, for Actuator's web endpoint discovery
     */
    public static OperationFilter<WebOperation> writeFilter(EndpointRoles roles) {
        return (operation, endpointId, defaultAccess) -> !EndpointId.of(ID).equals(endpointId)
                || operation.getType() == OperationType.READ
                || roles.writesExposed();
    }

    /**
     * {@code GET /actuator/dsched}: the cluster at a glance.
     * @param security the request's security
     * @param window the window the counts cover, such as {@code 1h} (default)
     * @return the overview
     */
    @ReadOperation
    public WebEndpointResponse<Object> overview(SecurityContext security, @Nullable String window) {
        return read(security, () -> this.cluster.overview(window(window, Duration.ofHours(1))));
    }

    /**
     * {@code GET /actuator/dsched/{jobs|executions|dead-letters|audit}}: a list; and
     * {@code GET /actuator/dsched/timeline} (the last hour, minute by minute),
     * {@code GET /actuator/dsched/schedule-preview?cron=&zone=} (the next five fire times of a cron)
     * and {@code GET /actuator/dsched/me} (who asks and what they may do).
     * @param security the request's security
     * @param collection which list
     * @param window for jobs: the window their statistics cover (default 24h); for the timeline: the
     *     window it covers (default 1h, at most 24h)
     * @param job for executions and dead letters: only this job's
     * @param status for executions and dead letters: only those in this state
     * @param from for dead letters: only those that last failed at or after this instant
     * @param to for dead letters: only those that last failed before this instant
     * @param actor for the audit log: only this actor's entries
     * @param cron for the schedule preview: the cron expression
     * @param zone for the schedule preview: its zone, or the node's default
     * @param page the page, from 0
     * @param size the page size, at most 200 (default 20)
     * @return the list
     */
    @ReadOperation
    public WebEndpointResponse<Object> list(
            SecurityContext security,
            @Selector String collection,
            @Nullable String window,
            @Nullable String job,
            @Nullable String status,
            @Nullable String from,
            @Nullable String to,
            @Nullable String actor,
            @Nullable String cron,
            @Nullable String zone,
            @Nullable Integer page,
            @Nullable Integer size) {
        if ("me".equals(collection)) {
            return me(security);
        }
        return read(security, () -> switch (collection) {
            case "timeline" -> this.cluster.timeline(timelineWindow(window));
            case "schedule-preview" -> this.jobs.preview(new ScheduleInput(cron, zone, null));
            case "jobs" -> this.jobs.jobs(window(window, Duration.ofDays(1)));
            case "executions" ->
                this.executions.executions(
                        name("job", job), parse("status", status, ExecutionStatus.class), pageable(page, size));
            case "dead-letters" ->
                PageView.of(this.deadLetters.list(
                        new DeadLetterFilter(
                                name("job", job),
                                parse("status", status, DeadLetterStatus.class),
                                instant("from", from),
                                instant("to", to)),
                        pageable(page, size)));
            case "audit" -> PageView.of(this.audit.list(name("actor", actor), null, pageable(page, size)));
            default -> throw unknownPath(collection);
        });
    }

    private WebEndpointResponse<Object> me(SecurityContext security) {
        Refusal refusal = this.roles.check(security, Level.NONE);
        if (refusal != null) {
            return error(refusal.status(), refusal.reason(), null);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        Principal principal = security.getPrincipal();
        body.put("name", (principal != null) ? principal.getName() : null);
        body.put("roles", this.roles.levels(security));
        body.put("writes", this.roles.writesExposed());
        return new WebEndpointResponse<>(body);
    }

    /**
     * {@code GET /actuator/dsched/{jobs|executions|dead-letters}/{id}}: one job with a page of its
     * executions, one execution with its failure and log, or one dead letter.
     * @param security the request's security
     * @param collection which list
     * @param id the job's name or the item's id
     * @param window for a job: the window its statistics cover (default 24h)
     * @param status for a job: only its executions in this state
     * @param page for a job: the page of its executions, from 0
     * @param size for a job: the page size, at most 200 (default 20)
     * @return the item
     */
    @ReadOperation
    public WebEndpointResponse<Object> one(
            SecurityContext security,
            @Selector String collection,
            @Selector String id,
            @Nullable String window,
            @Nullable String status,
            @Nullable Integer page,
            @Nullable Integer size) {
        return read(security, () -> switch (collection) {
            case "jobs" ->
                this.jobs.job(
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

    /**
     * {@code POST /actuator/dsched/jobs/{name}/{pause|resume|trigger|schedule|params}} and
     * {@code POST /actuator/dsched/dead-letters/{id}/{replay|discard}} and
     * {@code POST /actuator/dsched/executions/{id}/cancel}.
     * @param security the request's security
     * @param collection {@code jobs}, {@code dead-letters} or {@code executions}
     * @param id the job's name, the dead letter's id or the execution's id
     * @param action what to do
     * @param cron for schedule: the new cron expression
     * @param zone for schedule: the cron's zone
     * @param fixedRate for schedule: the new fixed rate, instead of a cron
     * @param params for params, and optionally trigger: the parameters, as JSON text
     * @param reason why; required to discard
     * @return what changed
     */
    @WriteOperation
    public WebEndpointResponse<Object> act(
            SecurityContext security,
            @Selector String collection,
            @Selector String id,
            @Selector String action,
            @Nullable String cron,
            @Nullable String zone,
            @Nullable String fixedRate,
            @Nullable String params,
            @Nullable String reason) {
        if ("dead-letters".equals(collection)) {
            return actOnDeadLetters(security, action, List.of(id), reason);
        }
        if ("executions".equals(collection)) {
            return write(security, "execution." + action, id, reason, Level.OPERATOR, () -> {
                if (!"cancel".equals(action)) {
                    throw unknownPath(action);
                }
                return this.commands.cancel(id("id", id), actor(security));
            });
        }
        if (!"jobs".equals(collection)) {
            return write(security, collection + "." + action, id, reason, Level.OPERATOR, () -> {
                throw unknownPath(collection);
            });
        }
        return switch (action) {
            case "pause" ->
                write(security, "job.pause", id, reason, Level.OPERATOR, () -> this.commands.pause(name("job", id)));
            case "resume" ->
                write(security, "job.resume", id, reason, Level.OPERATOR, () -> this.commands.resume(name("job", id)));
            case "trigger" ->
                write(
                        security,
                        "job.trigger",
                        id,
                        reason,
                        (params != null) ? Level.ADMIN : Level.OPERATOR,
                        () -> this.commands.trigger(name("job", id), params(params)));
            case "schedule" ->
                write(
                        security,
                        "job.schedule",
                        id,
                        reason,
                        Level.ADMIN,
                        () -> this.commands.reschedule(name("job", id), new ScheduleInput(cron, zone, fixedRate)));
            case "params" ->
                write(
                        security,
                        "job.params",
                        id,
                        reason,
                        Level.ADMIN,
                        () -> this.commands.params(name("job", id), params(params)));
            default ->
                write(security, "job." + action, id, reason, Level.OPERATOR, () -> {
                    throw unknownPath(action);
                });
        };
    }

    /**
     * {@code POST /actuator/dsched/dead-letters/{replay|discard}} with {@code ids}: acts on several
     * dead letters at once; if one of them cannot be acted on, none is.
     * @param security the request's security
     * @param collection {@code dead-letters}
     * @param action {@code replay} or {@code discard}
     * @param ids the dead letters' ids, separated by commas, at most 500
     * @param reason why; required to discard
     * @return what changed
     */
    @WriteOperation
    public WebEndpointResponse<Object> actOnMany(
            SecurityContext security,
            @Selector String collection,
            @Selector String action,
            @Nullable String ids,
            @Nullable String reason) {
        if (!"dead-letters".equals(collection)) {
            return write(security, collection + "." + action, null, reason, Level.OPERATOR, () -> {
                throw unknownPath(collection);
            });
        }
        List<String> given = new ArrayList<>();
        if (ids != null && !ids.isBlank()) {
            for (String id : ids.split(",", MAX_IDS + 2)) {
                given.add(id.strip());
            }
        }
        return actOnDeadLetters(security, action, given, reason);
    }

    private WebEndpointResponse<Object> actOnDeadLetters(
            SecurityContext security, String action, List<String> ids, @Nullable String reason) {
        String target = String.join(",", ids);
        return write(security, "dead-letter." + action, target, reason, Level.OPERATOR, () -> {
            List<Long> letters = ids(ids);
            String actor = actor(security);
            return switch (action) {
                case "replay" -> this.deadLetterCommands.replay(letters, actor, reason(reason));
                case "discard" -> this.deadLetterCommands.discard(letters, actor, reason(reason));
                default -> throw unknownPath(action);
            };
        });
    }

    private WebEndpointResponse<Object> read(SecurityContext security, Supplier<Object> read) {
        Refusal refusal = this.roles.check(security, Level.VIEWER);
        if (refusal != null) {
            return error(refusal.status(), refusal.reason(), null);
        }
        try {
            return new WebEndpointResponse<>(MaskedViews.view(read.get(), shownTo(security)));
        } catch (RuntimeException ex) {
            return failure(ex);
        }
    }

    private WebEndpointResponse<Object> write(
            SecurityContext security,
            String action,
            @Nullable String target,
            @Nullable String reason,
            Level level,
            Supplier<Change> change) {
        Refusal refusal = this.roles.check(security, level);
        if (refusal != null) {
            if (this.refusedWrites.refused(actor(security), refusal.status())) {
                record(security, action, target, null, null, reason, refusal.status(), refusal.reason());
            }
            return error(refusal.status(), refusal.reason(), null);
        }
        Change done;
        try {
            reason(reason);
            done = change.get();
        } catch (RuntimeException ex) {
            WebEndpointResponse<Object> response = failure(ex);
            record(security, action, target, null, null, reason, response.getStatus(), message(response));
            return response;
        }
        Change sanitized = this.values.sanitized(done);
        record(security, action, sanitized.target(), sanitized.before(), sanitized.after(), reason, 200, null);
        ShownValues shown = shownTo(security);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("action", action);
        body.put("target", done.target());
        body.put("before", shown.change(sanitized.before()));
        body.put("after", shown.change(sanitized.after()));
        body.put("valuesMasked", shown.masked());
        return new WebEndpointResponse<>(body);
    }

    private ShownValues shownTo(SecurityContext security) {
        return this.values.forCaller(this.roles.grants(security, Level.OPERATOR));
    }

    private void record(
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

    private WebEndpointResponse<Object> failure(RuntimeException ex) {
        if (ex instanceof ManagementException managed) {
            return error(managed.status(), managed.getMessage(), managed.field());
        }
        if (ex instanceof UnknownJobException) {
            return error(404, ex.getMessage(), null);
        }
        logger.error("The dsched endpoint failed", ex);
        return error(500, "The request failed on node " + this.nodeId + "; its log has the cause", null);
    }

    private static WebEndpointResponse<Object> error(int status, String message, @Nullable String field) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", status);
        body.put(
                "error",
                switch (status) {
                    case 400 -> "Bad Request";
                    case 401 -> "Unauthorized";
                    case 403 -> "Forbidden";
                    case 404 -> "Not Found";
                    case 409 -> "Conflict";
                    default -> "Internal Server Error";
                });
        body.put("message", message);
        if (field != null) {
            body.put("field", field);
        }
        return new WebEndpointResponse<>(body, status);
    }

    @SuppressWarnings("unchecked")
    private static String message(WebEndpointResponse<Object> response) {
        return String.valueOf(((Map<String, Object>) response.getBody()).get("message"));
    }

    private static String actor(SecurityContext security) {
        Principal principal = security.getPrincipal();
        return (principal != null) ? principal.getName() : RefusedWrites.ANONYMOUS;
    }

    private @Nullable String toJson(@Nullable Object value) {
        return (value != null) ? this.json.writeValueAsString(value) : null;
    }

    private @Nullable Object params(@Nullable String params) {
        if (params == null) {
            return null;
        }
        if (params.length() > MAX_PARAMS) {
            throw ManagementException.badInput(
                    "params", "params may have at most " + MAX_PARAMS + " characters of JSON");
        }
        try {
            return this.json.readTree(params);
        } catch (JacksonException ex) {
            throw ManagementException.badInput("params", "params is not valid JSON " + JsonProblem.where(ex));
        }
    }

    private static @Nullable String reason(@Nullable String reason) {
        if (reason != null && reason.length() > MAX_REASON) {
            throw ManagementException.badInput("reason", "reason may have at most " + MAX_REASON + " characters");
        }
        return reason;
    }

    private static @Nullable String name(String field, @Nullable String name) {
        if (name != null && (name.isBlank() || name.length() > MAX_NAME)) {
            throw ManagementException.badInput(field, field + " must have 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    private static long id(String field, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException ex) {
            throw ManagementException.badInput(field, field + " must be a number, was '" + shorten(value) + "'");
        }
    }

    private static List<Long> ids(List<String> values) {
        if (values.size() > MAX_IDS) {
            throw ManagementException.badInput("ids", "At most " + MAX_IDS + " ids at once");
        }
        return values.stream().map((value) -> id("ids", value)).toList();
    }

    private static Pageable pageable(@Nullable Integer page, @Nullable Integer size) {
        int number = (page != null) ? page : 0;
        int count = (size != null) ? size : 20;
        if (number < 0) {
            throw ManagementException.badInput("page", "page must be 0 or more");
        }
        if (count < 1 || count > MAX_PAGE_SIZE) {
            throw ManagementException.badInput("size", "size must be 1 to " + MAX_PAGE_SIZE);
        }
        return PageRequest.of(number, count);
    }

    private static Duration window(@Nullable String value, Duration fallback) {
        if (value == null) {
            return fallback;
        }
        Duration window;
        try {
            window = DurationStyle.detectAndParse(shorten(value));
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput("window", "window must be a duration such as 1h or PT1H");
        }
        if (window.isNegative() || window.isZero() || window.compareTo(MAX_WINDOW) > 0) {
            throw ManagementException.badInput("window", "window must be longer than zero and at most 31d");
        }
        return window;
    }

    private static Duration timelineWindow(@Nullable String value) {
        Duration window = window(value, Duration.ofHours(1));
        if (window.compareTo(MAX_TIMELINE) > 0) {
            throw ManagementException.badInput("window", "The timeline covers at most 24h");
        }
        return window;
    }

    private static @Nullable Instant instant(String field, @Nullable String value) {
        if (value == null) {
            return null;
        }
        Instant instant;
        try {
            instant = Instant.parse(shorten(value));
        } catch (DateTimeParseException ex) {
            throw ManagementException.badInput(
                    field, field + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
        // every database stores these years; a client's year 1000000000 is refused here, not by the driver
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw ManagementException.badInput(field, field + " must lie between the years 1970 and 9999");
        }
        return instant;
    }

    private static <E extends Enum<E>> @Nullable E parse(String field, @Nullable String value, Class<E> type) {
        if (value == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(
                    field,
                    "Unknown " + field + " '" + shorten(value) + "'; one of " + List.of(type.getEnumConstants()));
        }
    }

    private static ManagementException unknownPath(String segment) {
        return ManagementException.notFound("Nothing at '" + shorten(segment) + "' in the dsched endpoint");
    }

    private static String shorten(String value) {
        return (value.length() <= 60) ? value : value.substring(0, 60) + "…";
    }
}
