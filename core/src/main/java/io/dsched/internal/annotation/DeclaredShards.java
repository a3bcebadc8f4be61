package io.dsched.internal.annotation;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.definition.Schedule;
import io.dsched.internal.execution.Sharding;
import java.util.HashMap;
import java.util.Map;
import org.springframework.util.StringUtils;

/**
 * Reads the shards of a {@link DistributedScheduled} method and their parameters, failing with a
 * message that names the declaration.
 */
final class DeclaredShards {

    private DeclaredShards() {}

    /** The job's sharding, or {@code null} for a job without shards. */
    static Sharding sharding(
            DeclarationValues values, DistributedScheduled annotation, Schedule schedule, String source) {
        Sharding sharding = declared(values, annotation, schedule, source);
        if (!annotation.overlap()) {
            return sharding;
        }
        if (sharding == null) {
            throw new InvalidJobDefinitionException(
                    source, "overlap lets the fires of a job with shards or broadcast overlap: it has neither");
        }
        return sharding.overlapping();
    }

    private static Sharding declared(
            DeclarationValues values, DistributedScheduled annotation, Schedule schedule, String source) {
        String shards = values.resolve(annotation.shards());
        if (annotation.broadcast()) {
            if (StringUtils.hasText(shards) || annotation.shardParams().length > 0) {
                throw new InvalidJobDefinitionException(
                        source, "a broadcast job has one shard per live node: it declares no shards");
            }
            refuseFixedDelay(schedule, source);
            return Sharding.BROADCAST;
        }
        if (!StringUtils.hasText(shards)) {
            if (annotation.shardParams().length > 0) {
                throw new InvalidJobDefinitionException(source, "shardParams are given, but no shards");
            }
            return null;
        }
        int count;
        try {
            count = Integer.parseInt(shards);
        } catch (NumberFormatException ex) {
            throw new InvalidJobDefinitionException(source, "shards '" + shards + "' is not a whole number");
        }
        if (count < 1 || count > Sharding.MAX) {
            throw new InvalidJobDefinitionException(source, "shards must be 1 to " + Sharding.MAX + ", not " + count);
        }
        refuseFixedDelay(schedule, source);
        return new Sharding(count, params(values, annotation.shardParams(), count, source));
    }

    private static void refuseFixedDelay(Schedule schedule, String source) {
        if (schedule instanceof Schedule.FixedDelay) {
            throw new InvalidJobDefinitionException(
                    source,
                    "a fixed delay times each fire from the end of the last run, which a fire split over"
                            + " nodes does not have on one node: use a fixed rate or a cron");
        }
    }

    private static Map<Integer, String> params(DeclarationValues values, String[] declared, int count, String source) {
        Map<Integer, String> params = new HashMap<>();
        for (String entry : declared) {
            String resolved = values.resolve(entry);
            int equals = (resolved != null) ? resolved.indexOf('=') : -1;
            if (equals <= 0) {
                throw new InvalidJobDefinitionException(
                        source, "shard parameter '" + entry + "' is not of the form index=value");
            }
            int index;
            try {
                index = Integer.parseInt(resolved.substring(0, equals).trim());
            } catch (NumberFormatException ex) {
                throw new InvalidJobDefinitionException(
                        source, "shard parameter '" + entry + "' does not begin with a shard's index");
            }
            if (index < 0 || index >= count) {
                throw new InvalidJobDefinitionException(
                        source,
                        "shard parameter '" + entry + "' is for shard " + index + ", but the shards are 0 to "
                                + (count - 1));
            }
            if (params.put(index, resolved.substring(equals + 1).trim()) != null) {
                throw new InvalidJobDefinitionException(source, "shard " + index + " has more than one parameter");
            }
        }
        return params;
    }
}
