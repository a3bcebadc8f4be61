package io.dsched.internal.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Calls a node's {@code dsched} endpoint over real HTTP, as a user or anonymously. */
final class EndpointClient {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String origin;

    private final String base;

    EndpointClient(int port) {
        this.origin = "http://localhost:" + port;
        this.base = this.origin + "/actuator/dsched";
    }

    Response get(String path, String user) {
        return send(HttpRequest.newBuilder(uri(path)).GET(), user);
    }

    Response post(String path, String user, String body) {
        return send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)),
                user);
    }

    /** Posts to a path spelled as given, percent-encoding and all, below the server's root. */
    Response postRaw(String rawPath, String user, String body) {
        return send(
                HttpRequest.newBuilder(URI.create(this.origin + rawPath))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)),
                user);
    }

    /** Posts a body in chunks, without declaring its length. */
    Response postChunked(String path, String user, String body) {
        return send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString(body))),
                user);
    }

    private URI uri(String path) {
        return URI.create(this.base + path);
    }

    private Response send(HttpRequest.Builder request, String user) {
        if (user != null) {
            String credentials = user + ":" + SecuredManagementApp.PASSWORD;
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        try {
            HttpResponse<String> response = this.http.send(
                    request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            return new Response(response.statusCode(), body, json(body));
        } catch (java.io.IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The body as JSON; {@code null} when there is none or it is not JSON, such as a container's error page. */
    private static JsonNode json(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return json.readTree(body);
        } catch (tools.jackson.core.JacksonException ex) {
            return null;
        }
    }

    record Response(int status, String text, JsonNode body) {}
}
