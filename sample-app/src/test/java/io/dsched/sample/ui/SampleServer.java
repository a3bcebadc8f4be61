package io.dsched.sample.ui;

import io.dsched.sample.SampleApplication;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sample application on a real database, with its three users' passwords made up for the run,
 * and a client that reads its dsched endpoint as one of them.
 */
final class SampleServer implements AutoCloseable {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final ConfigurableApplicationContext context;

    private final TestDatabase database;

    private final Map<String, String> passwords = new HashMap<>();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SampleServer(TestDatabases.Kind kind) {
        this.database = TestDatabases.create(kind);
        Map<String, Object> properties = new HashMap<>(this.database.springProperties());
        properties.put(
                "spring.sql.init.platform",
                switch (kind) {
                    case POSTGRESQL -> "postgresql";
                    case MARIADB -> "mariadb";
                    case H2 -> "h2";
                });
        properties.put("server.port", "0");
        properties.put("dsched.node-id", "ui-node-1");
        properties.put("dsched.queue.poll-interval", "200ms");
        properties.put("spring.main.banner-mode", "off");
        for (String user : new String[] {"viewer", "operator", "admin"}) {
            String password = UUID.randomUUID().toString();
            this.passwords.put(user, password);
            properties.put("sample.users." + user + "-password", password);
        }
        // as arguments, which win over the application's own application.properties
        this.context = new SpringApplicationBuilder(SampleApplication.class)
                .run(properties.entrySet().stream()
                        .map((property) -> "--" + property.getKey() + "=" + property.getValue())
                        .toArray(String[]::new));
    }

    static SampleServer start(TestDatabases.Kind kind) {
        return new SampleServer(kind);
    }

    String base() {
        return "http://localhost:" + this.context.getEnvironment().getProperty("local.server.port");
    }

    String password(String user) {
        return this.passwords.get(user);
    }

    /** Reads the dsched endpoint as the viewer. */
    JsonNode read(String path) {
        return read(path, "viewer");
    }

    /** Reads the dsched endpoint as a user: an operator or an admin sees the values a viewer sees masked. */
    JsonNode read(String path, String user) {
        String credentials = user + ":" + password(user);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/actuator/dsched" + path))
                .header(
                        "Authorization",
                        "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30))
                .build();
        try {
            HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
            }
            return json.readTree(response.body());
        } catch (java.io.IOException ex) {
            throw new IllegalStateException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        try {
            this.context.close();
        } finally {
            this.database.close();
        }
    }
}
