package io.dsched.internal.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@link DschedEndpoint}'s operations over HTTP, at the same paths and with the same
 * parameters: an answer is a 200 with its body; a refusal or a failure answers 400 for bad input
 * (naming the field), 401 or 403 for a missing role, 404 for an unknown thing, 409 for a
 * conflicting change and 500 for a failure of the node, with a body that says why and never a
 * stack trace.
 */
@EndpointWebExtension(endpoint = DschedEndpoint.class)
public class DschedEndpointWebExtension {

    private final DschedEndpoint delegate;

    private final String nodeId;

    /**
     * Creates the extension.
     * @param delegate the endpoint's operations
     * @param nodeId this node, named in the answer to a failure of its own
     */
    public DschedEndpointWebExtension(DschedEndpoint delegate, String nodeId) {
        this.delegate = delegate;
        this.nodeId = nodeId;
    }

    /**
     * {@code GET /actuator/dsched}, as {@link DschedEndpoint#overview} reads it.
     * @param security the request's security
     * @param window the window the counts cover
     * @return the overview, or why not
     */
    @ReadOperation
    public WebEndpointResponse<Object> overview(SecurityContext security, @Nullable String window) {
        return answer(() -> this.delegate.overview(security, window));
    }

    /**
     * {@code GET /actuator/dsched/{collection}}, as {@link DschedEndpoint#list} reads it.
     * @param security the request's security
     * @param collection which list
     * @param window the window
     * @param job only this job's
     * @param status only those in this state
     * @param from only those that last failed at or after this instant
     * @param to only those that last failed before this instant
     * @param actor only this actor's entries
     * @param cron the cron expression to preview
     * @param zone its zone
     * @param page the page, from 0
     * @param size the page size
     * @return the list, or why not
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
        return answer(() ->
                this.delegate.list(security, collection, window, job, status, from, to, actor, cron, zone, page, size));
    }

    /**
     * {@code GET /actuator/dsched/{collection}/{id}}, as {@link DschedEndpoint#one} reads it.
     * @param security the request's security
     * @param collection which list
     * @param id the job's name or the item's id
     * @param window for a job: the window its statistics cover
     * @param status for a job: only its executions in this state
     * @param page for a job: the page of its executions
     * @param size for a job: the page size
     * @param fire for a sharded or broadcast job: one fire's time, in epoch milliseconds
     * @return the item, or why not
     */
    @ReadOperation
    public WebEndpointResponse<Object> one(
            SecurityContext security,
            @Selector String collection,
            @Selector String id,
            @Nullable String window,
            @Nullable String status,
            @Nullable Integer page,
            @Nullable Integer size,
            @Nullable String fire) {
        return answer(() -> this.delegate.one(security, collection, id, window, status, page, size, fire));
    }

    /**
     * {@code POST /actuator/dsched/{collection}/{id}/{action}}, as {@link DschedEndpoint#act} does it.
     * @param security the request's security
     * @param collection {@code jobs}, {@code dead-letters}, {@code executions} or {@code limits}
     * @param id the job's name, the dead letter's id, the execution's id or the handler's name
     * @param action what to do
     * @param cron for schedule: the new cron expression
     * @param zone for schedule: the cron's zone
     * @param fixedRate for schedule: the new fixed rate
     * @param params for params and trigger: the parameters, as JSON text
     * @param maxConcurrent for a handler's limits: the most attempts running at once
     * @param rate for a handler's limits: the rate, or {@code none}
     * @param quota for a handler's limits: the quota, or {@code none}
     * @param keyRate for a handler's limits: the rate of each key, or {@code none}
     * @param shards for a sharded job's shards: the shards of each fire, or {@code declared}
     * @param shardParams for a sharded job's shards: their parameters, as a JSON object by index
     * @param reason why
     * @return what changed, or why not
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
            @Nullable String maxConcurrent,
            @Nullable String rate,
            @Nullable String quota,
            @Nullable String keyRate,
            @Nullable String shards,
            @Nullable String shardParams,
            @Nullable String reason) {
        return answer(() -> this.delegate.act(
                security,
                collection,
                id,
                action,
                cron,
                zone,
                fixedRate,
                params,
                maxConcurrent,
                rate,
                quota,
                keyRate,
                shards,
                shardParams,
                reason));
    }

    /**
     * {@code POST /actuator/dsched/{collection}/{action}}, as {@link DschedEndpoint#actOnMany} does it.
     * @param security the request's security
     * @param collection {@code dead-letters}
     * @param action {@code replay} or {@code discard}
     * @param ids the dead letters' ids, separated by commas
     * @param reason why
     * @return what changed, or why not
     */
    @WriteOperation
    public WebEndpointResponse<Object> actOnMany(
            SecurityContext security,
            @Selector String collection,
            @Selector String action,
            @Nullable String ids,
            @Nullable String reason) {
        return answer(() -> this.delegate.actOnMany(security, collection, action, ids, reason));
    }

    private WebEndpointResponse<Object> answer(Supplier<Object> operation) {
        try {
            return new WebEndpointResponse<>(operation.get());
        } catch (RuntimeException ex) {
            EndpointFailure failure = EndpointFailure.of(ex, this.nodeId);
            return error(failure.status(), failure.getMessage(), failure.field());
        }
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
}
