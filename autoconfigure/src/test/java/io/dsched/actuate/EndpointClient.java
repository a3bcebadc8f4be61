package io.dsched.actuate;

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

    private final String base;

    EndpointClient(int port) {
        this.base = "http://localhost:" + port + "/actuator/dsched";
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
            return new Response(
                    response.statusCode(), body, (body == null || body.isBlank()) ? null : json.readTree(body));
        } catch (java.io.IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    record Response(int status, String text, JsonNode body) {}
}
