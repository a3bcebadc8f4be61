package io.dsched.internal.actuate;

import static io.dsched.internal.actuate.EndpointParameters.id;
import static io.dsched.internal.actuate.EndpointParameters.ids;
import static io.dsched.internal.actuate.EndpointParameters.name;
import static io.dsched.internal.actuate.EndpointParameters.params;
import static io.dsched.internal.actuate.EndpointParameters.reason;
import static io.dsched.internal.actuate.EndpointParameters.unknownPath;

import io.dsched.internal.actuate.EndpointRoles.Level;
import io.dsched.internal.management.Change;
import io.dsched.internal.management.DeadLetterCommands;
import io.dsched.internal.management.JobCommands;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.management.ManagementException;
import io.dsched.internal.management.ScheduleInput;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;

/**
 * The {@code dsched} endpoint's writes: which command each path names and the role it needs (an
 * operator's, an admin's to change a schedule, parameters, a job's shards or a handler's limits),
 * each audited.
 */
final class EndpointWrites {

    private final JobCommands commands;

    private final DeadLetterCommands deadLetters;

    private final LimitCommands limits;

    private final EndpointGuard guard;

    EndpointWrites(JobCommands commands, DeadLetterCommands deadLetters, LimitCommands limits, EndpointGuard guard) {
        this.commands = commands;
        this.deadLetters = deadLetters;
        this.limits = limits;
        this.guard = guard;
    }

    Object act(SecurityContext security, String collection, String id, String action, WriteInput input) {
        if ("dead-letters".equals(collection)) {
            return onDeadLetters(security, action, List.of(id), input.reason());
        }
        if ("executions".equals(collection)) {
            return this.guard.write(security, "execution." + action, id, input.reason(), Level.OPERATOR, () -> {
                if (!"cancel".equals(action)) {
                    throw unknownPath(action);
                }
                return this.commands.cancel(id("id", id), WriteAudit.actor(security));
            });
        }
        if ("limits".equals(collection)) {
            return this.guard.write(
                    security, "limit." + action, id, input.reason(), Level.ADMIN, () -> switch (action) {
                        case "set" ->
                            this.limits.set(
                                    name("handler", id),
                                    EndpointParameters.count("maxConcurrent", input.maxConcurrent()),
                                    input.rate(),
                                    input.quota(),
                                    input.keyRate(),
                                    WriteAudit.actor(security));
                        case "reset" -> this.limits.reset(name("handler", id));
                        default -> throw unknownPath(action);
                    });
        }
        if (!"jobs".equals(collection)) {
            return this.guard.write(security, collection + "." + action, id, input.reason(), Level.OPERATOR, () -> {
                throw unknownPath(collection);
            });
        }
        Level level =
                switch (action) {
                    case "schedule", "params", "shards" -> Level.ADMIN;
                    case "trigger" -> (input.params() != null) ? Level.ADMIN : Level.OPERATOR;
                    default -> Level.OPERATOR;
                };
        return this.guard.write(security, "job." + action, id, input.reason(), level, () -> switch (action) {
            case "pause" -> this.commands.pause(name("job", id));
            case "resume" -> this.commands.resume(name("job", id));
            case "trigger" -> this.commands.trigger(name("job", id), params(input.params()));
            case "schedule" ->
                this.commands.reschedule(
                        name("job", id), new ScheduleInput(input.cron(), input.zone(), input.fixedRate()));
            case "params" -> this.commands.params(name("job", id), params(input.params()));
            case "shards" -> shards(name("job", id), input, WriteAudit.actor(security));
            default -> throw unknownPath(action);
        });
    }

    /** Sets a sharded job's shards, or takes them back with {@code shards} of {@code declared}. */
    private Change shards(String job, WriteInput input, String actor) {
        if ("declared".equals(input.shards())) {
            if (input.shardParams() != null) {
                throw ManagementException.badInput("shardParams", "the declared shards take their declared parameters");
            }
            return this.commands.shards().reset(job);
        }
        Integer count = EndpointParameters.count("shards", input.shards());
        if (count == null) {
            throw ManagementException.badInput("shards", "Give the shards of each fire, or declared");
        }
        return this.commands.shards().set(job, count, EndpointParameters.shardParams(input.shardParams()), actor);
    }

    Object actOnMany(
            SecurityContext security, String collection, String action, @Nullable String ids, @Nullable String reason) {
        if (!"dead-letters".equals(collection)) {
            return this.guard.write(security, collection + "." + action, null, reason, Level.OPERATOR, () -> {
                throw unknownPath(collection);
            });
        }
        List<String> given = new ArrayList<>();
        if (ids != null && !ids.isBlank()) {
            for (String id : ids.split(",", EndpointParameters.MAX_IDS + 2)) {
                given.add(id.strip());
            }
        }
        return onDeadLetters(security, action, given, reason);
    }

    private Object onDeadLetters(SecurityContext security, String action, List<String> ids, @Nullable String reason) {
        String target = String.join(",", ids);
        return this.guard.write(security, "dead-letter." + action, target, reason, Level.OPERATOR, () -> {
            List<Long> letters = ids(ids);
            String actor = WriteAudit.actor(security);
            return switch (action) {
                case "replay" -> this.deadLetters.replay(letters, actor, reason(reason));
                case "discard" -> this.deadLetters.discard(letters, actor, reason(reason));
                default -> throw unknownPath(action);
            };
        });
    }

    /** The body of a write on a job or an item, each of its fields used by some actions only. */
    record WriteInput(
            @Nullable String cron,
            @Nullable String zone,
            @Nullable String fixedRate,
            @Nullable String params,
            @Nullable String maxConcurrent,
            @Nullable String rate,
            @Nullable String quota,
            @Nullable String keyRate,
            @Nullable String shards,
            @Nullable String shardParams,
            @Nullable String reason) {}
}
