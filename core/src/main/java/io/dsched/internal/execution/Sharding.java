package io.dsched.internal.execution;

import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a sharded job splits each fire: into {@code count} attempts, one per shard, each under an
 * idempotency key of its own ({@code job@millis#index/count}), so that each shard is claimed,
 * retried, dead-lettered and taken over on its own; each may carry a parameter. A broadcast job's
 * fire has one shard per live node that runs the job, counted as it fires, each for its node alone.
 *
 * @param count the shards of each fire, from 1 to {@link #MAX}; 0 for a broadcast job
 * @param params the parameter of each shard that has one, by index
 * @param broadcast whether each fire runs once on each live node that runs the job
 * @param overlap whether a fire's shards may start while an earlier fire's still run (else the
 *     next fire is held until every attempt of the job has ended)
 */
public record Sharding(int count, Map<Integer, String> params, boolean broadcast, boolean overlap) {

    /** The most shards a fire may have. */
    public static final int MAX = 1000;

    /** The most characters a shard's parameter set at run time may have. */
    public static final int MAX_PARAM = 1000;

    /** A broadcast job's: one shard per live node that runs it, counted at each fire. */
    public static final Sharding BROADCAST = new Sharding(0, Map.of(), true, false);

    /**
     * A job split into a number of shards.
     * @param count the shards of each fire, from 1 to {@link #MAX}
     * @param params the parameter of each shard that has one, by index
     */
    public Sharding(int count, Map<Integer, String> params) {
        this(count, params, false, false);
    }

    /**
     * Returns this sharding with fires that may overlap.
     * @return the same shards, whose fires are not held behind each other
     */
    public Sharding overlapping() {
        return new Sharding(this.count, this.params, this.broadcast, true);
    }

    public Sharding {
        if (broadcast) {
            if (count != 0 || !params.isEmpty()) {
                throw new IllegalArgumentException("a broadcast job's shards are its live nodes, not declared");
            }
        } else if (count < 1 || count > MAX) {
            throw new IllegalArgumentException("shards must be 1 to " + MAX + ", not " + count);
        }
        params = Map.copyOf(Objects.requireNonNull(params, "params"));
        for (Integer index : params.keySet()) {
            if (index < 0 || index >= count) {
                throw new IllegalArgumentException(
                        "a parameter is given for shard " + index + ", but the shards are 0 to " + (count - 1));
            }
        }
    }

    /**
     * Returns the parameter of a shard.
     * @param index the shard
     * @return its parameter, or {@code null} if it has none
     */
    public String param(int index) {
        return this.params.get(index);
    }

    /**
     * Returns the payload a shard's attempt carries its parameter in, so that a fire keeps the
     * parameters it was written with whatever is set later: the parameter as a JSON string.
     * @param param the parameter, or {@code null}
     * @return the payload, or {@code null} for no parameter
     */
    public static String payloadOf(String param) {
        return (param != null) ? JSON.writeValueAsString(param) : null;
    }

    /**
     * Returns the parameter a shard's attempt carries (see {@link #payloadOf}).
     * @param payload the attempt's payload
     * @return the parameter, or {@code null} if the payload carries none
     */
    public static String paramOf(String payload) {
        if (payload == null) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(payload);
            return node.isString() ? node.asString() : null;
        } catch (JacksonException ex) {
            return null;
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Returns the shard an attempt runs, from its idempotency key.
     * @param idempotencyKey the attempt's key
     * @return the shard, or {@code null} for a key of no shard (a run by hand of a sharded job,
     *     which runs the whole of it, as {@link Shard#WHOLE})
     */
    public static Shard shardOf(String idempotencyKey) {
        int mark = idempotencyKey.lastIndexOf('#');
        int slash = idempotencyKey.lastIndexOf('/');
        if (mark < 0 || slash < mark || idempotencyKey.lastIndexOf('@') > mark) {
            return null;
        }
        try {
            int index = Integer.parseInt(idempotencyKey, mark + 1, slash, 10);
            int count = Integer.parseInt(idempotencyKey, slash + 1, idempotencyKey.length(), 10);
            return (index >= 0 && index < count) ? new Shard(index, count) : null;
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    /**
     * One shard of a fire.
     *
     * @param index which, from 0
     * @param count of how many
     */
    public record Shard(int index, int count) {

        /** The whole of a fire, as a job that is not sharded sees it. */
        public static final Shard WHOLE = new Shard(0, 1);
    }
}
