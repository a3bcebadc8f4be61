package io.dsched.internal.cluster;

import io.dsched.internal.actuate.DschedEndpointWebExtension;
import io.dsched.test.ClusterNode;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node's {@code dsched} endpoint as an operator of its cluster reads it: each answer written as
 * the JSON a client gets, without the HTTP in between.
 */
final class EndpointViews {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final DschedEndpointWebExtension endpoint;

    private final SecurityContext operator;

    EndpointViews(ClusterNode node) {
        this.endpoint = node.bean(DschedEndpointWebExtension.class);
        String name = "operator-of-" + node.id();
        this.operator = new SecurityContext() {

            @Override
            public Principal getPrincipal() {
                return () -> name;
            }

            @Override
            public boolean isUserInRole(String role) {
                return true;
            }
        };
    }

    /** {@code GET /actuator/dsched}. */
    JsonNode overview() {
        return body(this.endpoint.overview(this.operator, null));
    }

    /** The ids of the nodes the overview lists, and of those among them it counts as alive. */
    List<String> nodes(boolean aliveOnly) {
        List<String> ids = new ArrayList<>();
        for (JsonNode node : overview().path("nodes")) {
            if (!aliveOnly || node.path("alive").asBoolean()) {
                ids.add(node.path("id").asString());
            }
        }
        return ids;
    }

    /** {@code GET /actuator/dsched/{collection}}: a list, or the first page of 200. */
    JsonNode list(String collection) {
        return body(
                this.endpoint.list(this.operator, collection, null, null, null, null, null, null, null, null, 0, 200));
    }

    /** The items of a page, or of a list. */
    List<JsonNode> items(String collection) {
        JsonNode answer = list(collection);
        List<JsonNode> items = new ArrayList<>();
        (answer.isArray() ? answer : answer.path("content")).forEach(items::add);
        return items;
    }

    /** {@code GET /actuator/dsched/{collection}/{id}}: the HTTP status it answers with. */
    int status(String collection, String id) {
        return this.endpoint
                .one(this.operator, collection, id, null, null, null, null, null)
                .getStatus();
    }

    /** {@code POST /actuator/dsched/jobs/{job}/{action}}, with no parameters. */
    JsonNode act(String job, String action) {
        return body(this.endpoint.act(
                this.operator, "jobs", job, action, null, null, null, null, null, null, null, null, null, null, null));
    }

    private static JsonNode body(WebEndpointResponse<Object> response) {
        JsonNode body = json.valueToTree(response.getBody());
        if (response.getStatus() != 200) {
            throw new IllegalStateException("The endpoint answered " + response.getStatus() + ": " + body);
        }
        return body;
    }
}
