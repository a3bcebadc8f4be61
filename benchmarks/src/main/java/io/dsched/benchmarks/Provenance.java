package io.dsched.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a report must say about where its numbers come from: the commit, the database's version
 * and settings, the JVM and the version of each contestant's library.
 */
public final class Provenance {

    private static final List<String> POSTGRES_SETTINGS =
            List.of("shared_buffers", "synchronous_commit", "fsync", "max_connections", "autovacuum");

    private static final List<String> MARIADB_SETTINGS =
            List.of("innodb_buffer_pool_size", "innodb_flush_log_at_trx_commit", "sync_binlog");

    private Provenance() {}

    /**
     * Returns the commit of the working tree the benchmark runs from, and whether the tree has
     * changes not committed.
     * @return such as {@code 0123abc... (clean)}, or {@code unknown (...)} without git
     */
    static String commit() {
        try {
            String head = git("rev-parse", "HEAD").strip();
            String changes = git("status", "--porcelain").strip();
            return head + (changes.isEmpty() ? " (clean)" : " (dirty: changes not committed)");
        } catch (IOException | RuntimeException ex) {
            return "unknown (" + ex.getMessage() + ")";
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "unknown (interrupted)";
        }
    }

    private static String git(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("git " + String.join(" ", arguments) + " failed: " + out.strip());
        }
        return out;
    }

    /** The names as a list of SQL string literals: the setting names are constants of this class. */
    private static String sqlList(List<String> names) {
        return names.stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
    }

    /**
     * Returns the database settings that bear on the results.
     * @param db the database
     * @param jdbc connections to it
     * @return such as {@code fsync=on, shared_buffers=128MB}
     */
    static String databaseSettings(BenchDatabase db, JdbcTemplate jdbc) {
        try {
            if (db.isPostgres()) {
                return jdbc
                        .queryForList("SELECT name, current_setting(name) AS value FROM pg_settings WHERE name IN ("
                                + sqlList(POSTGRES_SETTINGS) + ") ORDER BY name")
                        .stream()
                        .map((row) -> row.get("name") + "=" + row.get("value"))
                        .collect(Collectors.joining(", "));
            }
            return jdbc
                    .queryForList("SHOW GLOBAL VARIABLES WHERE Variable_name IN (" + sqlList(MARIADB_SETTINGS) + ")")
                    .stream()
                    .map(Provenance::mariadbSetting)
                    .sorted()
                    .collect(Collectors.joining(", "));
        } catch (RuntimeException ex) {
            return "unknown (" + ex.getMessage() + ")";
        }
    }

    private static String mariadbSetting(Map<String, Object> row) {
        String name = String.valueOf(row.get("Variable_name")).toLowerCase(Locale.ROOT);
        String value = String.valueOf(row.get("Value"));
        if (name.equals("innodb_buffer_pool_size") && value.matches("\\d+")) {
            value = (Long.parseLong(value) / (1024 * 1024)) + "MiB";
        }
        return name + "=" + value;
    }

    /**
     * Returns the JVM that runs the coordinator and the worker JVMs.
     * @return such as {@code OpenJDK 64-Bit Server VM 17.0.12+7 (Eclipse Adoptium)}
     */
    static String jvm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("java.vm.vendor") + "), worker JVMs -Xmx512m -XX:+UseParallelGC"
                + " -XX:-UseDynamicNumberOfCompilerThreads";
    }

    /**
     * Returns the version of a library on the class path, from the {@code pom.properties} Maven
     * puts in its jar, else from its manifest.
     * @param anyClass a class of the library
     * @param group its Maven group
     * @param artifact its Maven artifact
     * @return the version, or {@code unknown}
     */
    public static String version(Class<?> anyClass, String group, String artifact) {
        String resource = "META-INF/maven/" + group + "/" + artifact + "/pom.properties";
        try (InputStream in = anyClass.getClassLoader().getResourceAsStream(resource)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null) {
                    return version;
                }
            }
        } catch (IOException ex) {
            // fall back on the manifest
        }
        String version = anyClass.getPackage().getImplementationVersion();
        return (version != null) ? version : "unknown";
    }
}
