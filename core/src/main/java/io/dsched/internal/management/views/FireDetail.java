package io.dsched.internal.management.views;

import java.util.List;

/**
 * A fire of a sharded or broadcast job with each of its shards.
 *
 * @param job the job
 * @param fire the fire as a whole
 * @param shards its shards, by index
 */
public record FireDetail(String job, Fire fire, List<FireShard> shards) {

    public FireDetail {
        shards = List.copyOf(shards);
    }
}
