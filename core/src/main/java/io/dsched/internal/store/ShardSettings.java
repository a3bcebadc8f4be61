package io.dsched.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shard counts and parameters set at run time ({@code dsched_job_shards}): a sharded job's fires
 * written since have them in place of its declaration's, until they are reset.
 */
public final class ShardSettings {

    private static final Logger logger = LoggerFactory.getLogger(ShardSettings.class);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final TypeReference<TreeMap<Integer, String>> PARAMS = new TypeReference<>() {};

    private static final String UPDATE =
            "UPDATE dsched_job_shards SET shard_count = :count, shard_params = :params, set_by = :actor,"
                    + " set_at = :now WHERE job_name = :job";

    private final ExecutionRows rows;

    ShardSettings(ExecutionRows rows) {
        this.rows = rows;
    }

    /**
     * Returns the shards set for a job at run time.
     * @param jobName the job
     * @return what was set, or empty if its declaration's are in force; empty too should what was
     *     set not be readable for another reason than a passing failure (logged)
     */
    public Optional<Set> find(String jobName) {
        List<Set> found;
        try {
            found = read(jobName);
        } catch (RuntimeException ex) {
            if (TransientFailures.isTransient(ex)) {
                throw ex;
            }
            // their table missing from a database created before shards could be set, say
            logger.warn(
                    "Could not read the shards set for '{}'; its declaration's are in force: {}",
                    jobName,
                    ex.getMessage());
            return Optional.empty();
        }
        return found.stream().findFirst();
    }

    private List<Set> read(String jobName) {
        return this.rows.named.query(
                "SELECT shard_count, shard_params, set_by, set_at FROM dsched_job_shards WHERE job_name = :job",
                new MapSqlParameterSource("job", jobName),
                (rs, row) -> new Set(
                        rs.getInt("shard_count"),
                        params(rs.getString("shard_params")),
                        rs.getString("set_by"),
                        this.rows.dialect.readInstant(rs, "set_at")));
    }

    /**
     * Sets a job's shards, in force for its fires written from now on.
     * @param jobName the job
     * @param count the shards of each fire
     * @param params the parameter of each shard that has one, by index
     * @param actor who sets them
     * @param now the time
     */
    public void set(String jobName, int count, Map<Integer, String> params, String actor, Instant now) {
        MapSqlParameterSource values = new MapSqlParameterSource("job", jobName)
                .addValue("count", count)
                .addValue("params", paramsJson(params))
                .addValue("actor", actor)
                .addValue("now", this.rows.dialect.bindable(now));
        int updated = this.rows.named.update(UPDATE, values);
        if (updated == 0) {
            try {
                this.rows.named.update(
                        "INSERT INTO dsched_job_shards (job_name, shard_count, shard_params, set_by, set_at)"
                                + " VALUES (:job, :count, :params, :actor, :now)",
                        values);
            } catch (DuplicateKeyException ex) {
                // set at the same moment by another: the later write holds
                this.rows.named.update(UPDATE, values);
            }
        }
    }

    /**
     * Takes back what was set for a job: its declaration's shards are in force again.
     * @param jobName the job
     * @return whether anything was set
     */
    public boolean reset(String jobName) {
        return this.rows.named.update(
                        "DELETE FROM dsched_job_shards WHERE job_name = :job",
                        new MapSqlParameterSource("job", jobName))
                > 0;
    }

    /**
     * Writes shards' parameters as they are stored: a JSON object by index.
     * @param params the parameter of each shard that has one, by index
     * @return the JSON, or {@code null} for none
     */
    public static String paramsJson(Map<Integer, String> params) {
        return params.isEmpty() ? null : JSON.writeValueAsString(new TreeMap<>(params));
    }

    /**
     * Reads shards' parameters as {@link #paramsJson} wrote them.
     * @param json the JSON, or {@code null}
     * @return the parameter of each shard that has one, by index
     */
    public static Map<Integer, String> params(String json) {
        return (json == null) ? Map.of() : JSON.readValue(json, PARAMS);
    }

    /**
     * A job's shards as set at run time.
     *
     * @param count the shards of each fire
     * @param params the parameter of each shard that has one, by index
     * @param setBy who set them
     * @param setAt when
     */
    public record Set(int count, Map<Integer, String> params, String setBy, Instant setAt) {

        public Set {
            params = Map.copyOf(params);
        }
    }
}
