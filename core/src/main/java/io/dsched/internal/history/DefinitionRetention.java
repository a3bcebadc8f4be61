package io.dsched.internal.history;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.SqlDialect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which rows of {@code dsched_job_definition} housekeeping forgets, once older than the deployment
 * retention: every row of a job that no deployment still recorded declares (the job left the
 * cluster, and a node of a deployment forgotten counts as new anyway), and a replaced definition
 * of a job still declared once no deployment still recorded can run it.
 *
 * <p>Which definition of a job each deployment runs is not recorded, only when each definition
 * last came into force and by which node. A replaced definition is kept while a deployment that
 * declares the job was first seen before the deployment that brought in the definition after it:
 * that is the deployment its node had recorded last, just before, and no other node records one in
 * between (they take turns under the deployment lock). When that deployment cannot be told (it is
 * forgotten, another node recorded it, or it was recorded long before), the definition after it
 * counts from when it came into force instead, which keeps more. A deployment that declares the
 * job by its names alone, without build information, and so spans several builds, was first seen
 * before any of them: it keeps every replaced definition of the job.
 */
final class DefinitionRetention {

    /**
     * How long after a node recorded its deployment it may still be recording the definitions of
     * its jobs.
     */
    static final Duration SYNCHRONIZING = Duration.ofMinutes(5);

    private final JdbcTemplate jdbc;

    private final SqlDialect dialect;

    private final ClusterTables tables;

    DefinitionRetention(JdbcTemplate jdbc, DatabasePlatform platform, ClusterTables tables) {
        this.jdbc = jdbc;
        this.dialect = platform.dialect();
        this.tables = tables;
    }

    /**
     * Deletes what is no longer needed of what came into force before a time.
     * @param cutoff rows that came into force later are kept
     * @return how many rows were deleted
     */
    int forgetBefore(Instant cutoff) {
        // the deployments of the cluster left after housekeeping forgot the old ones
        List<Deployment> deployments = this.jdbc.query(
                this.tables.sql("SELECT job_names, node_id, first_seen_at FROM dsched_deployment"),
                (row, number) -> new Deployment(
                        names(row.getString("job_names")),
                        row.getString("node_id"),
                        this.dialect.readInstant(row, "first_seen_at")));
        Map<String, List<Definition>> byJob = new LinkedHashMap<>();
        this.jdbc.query(
                this.tables.sql(
                        "SELECT job_name, definition_hash, status, node_id, created_at FROM dsched_job_definition"),
                (row) -> {
                    byJob.computeIfAbsent(row.getString("job_name"), (job) -> new ArrayList<>())
                            .add(new Definition(
                                    row.getString("job_name"),
                                    row.getString("definition_hash"),
                                    row.getString("status"),
                                    row.getString("node_id"),
                                    this.dialect.readInstant(row, "created_at")));
                });
        List<Object[]> ofJobsGone = new ArrayList<>();
        List<Object[]> replaced = new ArrayList<>();
        Object bound = this.dialect.bindable(cutoff);
        for (List<Definition> definitions : byJob.values()) {
            definitions.sort(Comparator.comparing(Definition::since).thenComparing(Definition::hash));
            String job = definitions.get(0).job();
            List<Instant> declaredSince = deployments.stream()
                    .filter((deployment) -> deployment.jobs().contains(job))
                    .map(Deployment::firstSeen)
                    .toList();
            for (int i = 0; i < definitions.size(); i++) {
                Definition definition = definitions.get(i);
                if (!definition.since().isBefore(cutoff)) {
                    continue;
                }
                if (declaredSince.isEmpty()) {
                    ofJobsGone.add(new Object[] {job, definition.hash(), bound});
                } else if ("SUPERSEDED".equals(definition.status()) && i + 1 < definitions.size()) {
                    Instant followed = broughtIn(definitions.get(i + 1), deployments);
                    if (declaredSince.stream().noneMatch((since) -> since.isBefore(followed))) {
                        replaced.add(new Object[] {job, definition.hash(), bound});
                    }
                }
            }
        }
        // the time again, and the state: a node that re-applies a definition meanwhile keeps it
        return delete(
                        "DELETE FROM dsched_job_definition WHERE job_name = ? AND definition_hash = ?"
                                + " AND created_at < ?",
                        ofJobsGone)
                + delete(
                        "DELETE FROM dsched_job_definition WHERE job_name = ? AND definition_hash = ?"
                                + " AND created_at < ? AND status = 'SUPERSEDED'",
                        replaced);
    }

    /**
     * Returns when the deployment that brought a definition into force was first seen, or, when it
     * cannot be told, when the definition came into force.
     */
    private static Instant broughtIn(Definition definition, List<Deployment> deployments) {
        Deployment last = null;
        for (Deployment deployment : deployments) {
            if (!deployment.firstSeen().isAfter(definition.since())
                    && (last == null || deployment.firstSeen().isAfter(last.firstSeen()))) {
                last = deployment;
            }
        }
        if (last != null
                && last.nodeId().equals(definition.nodeId())
                && !last.firstSeen().isBefore(definition.since().minus(SYNCHRONIZING))) {
            return last.firstSeen();
        }
        return definition.since();
    }

    private int delete(String sql, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return 0;
        }
        int deleted = 0;
        for (int count : this.jdbc.batchUpdate(this.tables.sql(sql), rows)) {
            // a driver may answer that a statement of the batch succeeded without saying how many
            deleted += Math.max(count, 0);
        }
        return deleted;
    }

    private static Set<String> names(String text) {
        return (text == null || text.isEmpty()) ? Set.of() : Set.of(text.split("\n"));
    }

    private record Deployment(Set<String> jobs, String nodeId, Instant firstSeen) {}

    private record Definition(String job, String hash, String status, String nodeId, Instant since) {}
}
