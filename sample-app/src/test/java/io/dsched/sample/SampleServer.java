package io.dsched.sample;

import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The sample application on a real database, with its three users' passwords made up for the run,
 * and clients that call it as one of them.
 */
public final class SampleServer implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private final TestDatabase database;

    private final Map<String, String> passwords = new HashMap<>();

    /**
     * The clients {@link #read} reads with, one a user, each signed in once through the login form:
     * the sample keeps its passwords in bcrypt, and HTTP Basic on every read (tests poll with them)
     * spent a tenth of a second of the test's CPU in bcrypt each time.
     */
    private final Map<String, SampleClient> readers = new ConcurrentHashMap<>();

    private SampleServer(TestDatabases.Kind kind, Map<String, String> extra) {
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
        // the sample's pool of 20 would open all 20 at start (Hikari's minimum-idle defaults to the
        // maximum): two test JVMs, each with a sample on the database server, and the suites of other
        // builds would take a good part of a server's 100 connections while doing nothing with them
        properties.put("spring.datasource.hikari.minimum-idle", "2");
        for (String user : new String[] {"viewer", "operator", "admin"}) {
            String password = UUID.randomUUID().toString();
            this.passwords.put(user, password);
            properties.put("sample.users." + user + "-password", password);
        }
        properties.putAll(extra);
        try {
            // as arguments, which win over the application's own application.properties
            this.context = new SpringApplicationBuilder(SampleApplication.class)
                    .run(properties.entrySet().stream()
                            .map((property) -> "--" + property.getKey() + "=" + property.getValue())
                            .toArray(String[]::new));
        } catch (RuntimeException ex) {
            this.database.close();
            throw ex;
        }
    }

    /**
     * Starts the sample on a fresh database.
     * @param kind the database
     * @return the running sample
     */
    public static SampleServer start(TestDatabases.Kind kind) {
        return start(kind, Map.of());
    }

    /**
     * Starts the sample on a fresh database with properties of the test's own.
     * @param kind the database
     * @param properties properties that win over the sample's
     * @return the running sample
     */
    public static SampleServer start(TestDatabases.Kind kind, Map<String, String> properties) {
        return new SampleServer(kind, properties);
    }

    /**
     * Returns the root of the sample's URLs.
     * @return such as {@code http://localhost:8080}
     */
    public String base() {
        return "http://localhost:" + this.context.getEnvironment().getProperty("local.server.port");
    }

    /**
     * Returns a user's password.
     * @param user {@code viewer}, {@code operator} or {@code admin}
     * @return the password
     */
    public String password(String user) {
        return this.passwords.get(user);
    }

    /**
     * Returns a client that calls the sample as a user, with HTTP Basic.
     * @param user {@code viewer}, {@code operator} or {@code admin}
     * @return a new client, with a cookie jar of its own
     */
    public SampleClient client(String user) {
        return SampleClient.basic(base(), user, password(user));
    }

    private SampleClient session(String user) {
        return SampleClient.session(base(), user, password(user));
    }

    /**
     * Returns a bean of the sample.
     * @param <T> its type
     * @param type its type
     * @return the bean
     */
    public <T> T bean(Class<T> type) {
        return this.context.getBean(type);
    }

    /**
     * Reads the dsched endpoint as the viewer.
     * @param path the path under {@code /actuator/dsched}
     * @return the answer's JSON
     */
    public JsonNode read(String path) {
        return read(path, "viewer");
    }

    /**
     * Reads the dsched endpoint as a user: an operator or an admin sees the values a viewer sees
     * masked.
     * @param path the path under {@code /actuator/dsched}
     * @param user the user
     * @return the answer's JSON
     */
    public JsonNode read(String path, String user) {
        SampleClient.Response response =
                this.readers.computeIfAbsent(user, this::session).get("/actuator/dsched" + path);
        if (response.status() != 200) {
            throw new IllegalStateException(response.toString());
        }
        return response.json();
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
