package io.dsched.internal.management.views;

import java.time.Instant;
import java.util.Map;

/**
 * The shards a sharded job's fires are split into now: its declaration's, or those an admin set at
 * run time.
 *
 * @param count the shards of each fire written now
 * @param params the parameter of each shard that has one, by index
 * @param declared the shards the job declares
 * @param declaredParams the parameters it declares
 * @param setBy who set the shards in force, or {@code null} while they are the declaration's
 * @param setAt when, or {@code null}
 */
public record Shards(
        int count,
        Map<Integer, String> params,
        int declared,
        Map<Integer, String> declaredParams,
        String setBy,
        Instant setAt) {

    public Shards {
        params = Map.copyOf(params);
        declaredParams = Map.copyOf(declaredParams);
    }
}
