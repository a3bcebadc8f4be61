package io.dsched.queue;

import io.dsched.test.LoopbackPorts;
import io.dsched.test.Prerequisites;
import io.dsched.test.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * A PgBouncer in transaction mode in front of a test's PostgreSQL database, run as a process of
 * its own (Debian's package {@code pgbouncer}); as root it runs as the user {@code postgres}, since
 * PgBouncer refuses to run as root.
 */
final class PgBouncer implements AutoCloseable {

    private static final Path DEBIAN = Path.of("/usr/sbin/pgbouncer");

    private final Process process;

    private final Path directory;

    private final String url;

    private PgBouncer(Process process, Path directory, String url) {
        this.process = process;
        this.directory = directory;
        this.url = url;
    }

    /**
     * Starts a PgBouncer in front of a database, or skips the test (fails it in CI) without one.
     * @param database the database, on PostgreSQL
     * @return the running pooler
     * @throws IOException if it cannot be started
     */
    static PgBouncer inFrontOf(TestDatabase database) throws IOException {
        Path command = Prerequisites.onPath("pgbouncer")
                .or(() -> Files.isExecutable(DEBIAN) ? java.util.Optional.of(DEBIAN) : java.util.Optional.empty())
                .orElseThrow(() ->
                        Prerequisites.missing("No pgbouncer: install Debian's package pgbouncer for the pooler test"));
        // jdbc:postgresql://host:port/db?currentSchema=schema: the pooler sets the schema on its
        // server connections, as it takes no search_path from its clients
        URI server = URI.create(database.url().substring("jdbc:".length()));
        String schema = (server.getQuery() != null)
                ? java.util.Arrays.stream(server.getQuery().split("&"))
                        .filter((parameter) -> parameter.startsWith("currentSchema="))
                        .map((parameter) -> parameter.substring("currentSchema=".length()))
                        .findFirst()
                        .orElse("public")
                : "public";
        int port = LoopbackPorts.free();
        Path directory = Files.createTempDirectory("dsched-pgbouncer");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path config = directory.resolve("pgbouncer.ini");
        Files.writeString(
                config,
                String.join(
                        "\n",
                        "[databases]",
                        "bounced = host=" + server.getHost() + " port="
                                + ((server.getPort() > 0) ? server.getPort() : 5432) + " dbname="
                                + server.getPath().substring(1) + " user=" + database.username()
                                + ((database.password() != null
                                                && !database.password().isEmpty())
                                        ? " password=" + database.password()
                                        : "")
                                + " connect_query='SET search_path TO " + schema + "'",
                        "[pgbouncer]",
                        "listen_addr = 127.0.0.1",
                        "listen_port = " + port,
                        "unix_socket_dir =",
                        "auth_type = any",
                        "pool_mode = transaction",
                        "default_pool_size = 40",
                        "max_client_conn = 200",
                        "ignore_startup_parameters = extra_float_digits,options",
                        ""));
        List<String> line = new ArrayList<>(List.of(command.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            line.addAll(List.of("-u", "postgres"));
        }
        line.add(config.toString());
        Process process = new ProcessBuilder(line)
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("pgbouncer.log").toFile())
                .start();
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/bounced?prepareThreshold=0";
        PgBouncer bouncer = new PgBouncer(process, directory, url);
        try {
            Awaitility.await("pgbouncer listening on " + port)
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> LoopbackPorts.accepts(port) || !process.isAlive());
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "pgbouncer did not start: " + Files.readString(directory.resolve("pgbouncer.log")));
            }
        } catch (RuntimeException ex) {
            bouncer.close();
            throw ex;
        }
        return bouncer;
    }

    /** The JDBC URL of the database through the pooler. */
    String url() {
        return this.url;
    }

    @Override
    public void close() throws IOException {
        // at once: a newer PgBouncer waits for its clients at SIGTERM
        this.process.destroyForcibly();
        try {
            this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        try (var files = Files.list(this.directory)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(this.directory);
    }
}
