package io.dsched.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The ceiling: pgbench's simple-update TPS on the same PostgreSQL server. */
final class PgbenchCeiling extends WorkloadRunner {

    PgbenchCeiling(Harness harness) {
        super(harness);
    }

    void run() {
        String pgbench = option("pgbench", "pgbench");
        String database = "dsched_pgbench";
        List<String> server = List.of("-h", "localhost", "-U", this.db.user());
        try {
            psql(server, "DROP DATABASE IF EXISTS " + database);
            psql(server, "CREATE DATABASE " + database);
            run(concat(List.of(pgbench, "-i", "-q"), server, List.of(database)));
            line("## Ceiling: pgbench simple-update (`pgbench -b simple-update -n -T 15 -c C -j C`) on the same"
                    + " server");
            line("");
            line("| clients | TPS |");
            line("| --- | --- |");
            for (int clients : List.of(2, 8)) {
                String c = Integer.toString(clients);
                String out = run(concat(
                        List.of(pgbench, "-b", "simple-update", "-n", "-T", "15", "-c", c, "-j", c),
                        server,
                        List.of(database)));
                String tps = out.lines()
                        .filter((text) -> text.startsWith("tps"))
                        .findFirst()
                        .map((text) -> text.replaceAll("tps = ([0-9.]+).*", "$1"))
                        .orElse("NaN");
                line("| " + clients + " | " + Stats.number(Double.parseDouble(tps)) + " |");
            }
            line("");
            psql(server, "DROP DATABASE IF EXISTS " + database);
        } catch (Exception ex) {
            line("pgbench could not run here (" + ex.getMessage() + "); no ceiling measured.");
            line("");
        }
    }

    private static void psql(List<String> server, String sql) throws IOException, InterruptedException {
        run(concat(List.of("psql"), server, List.of("-d", "postgres", "-c", sql)));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.strip());
        }
        return out;
    }
}
