package io.dsched.internal.management;

import io.dsched.internal.execution.Sharding;
import io.dsched.internal.management.views.Shards;
import io.dsched.internal.store.ShardSettings;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the management endpoint changes of a sharded job's shards: their count and parameters, set
 * for the cluster at run time and in force from the job's next fire (a fire written already keeps
 * the count and parameters it was written with), until reset to the declaration's.
 */
public class ShardCommands {

    /** The most characters a shard's parameter may have. */
    static final int MAX_PARAM = Sharding.MAX_PARAM;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ManagedJobs jobs;

    private final Function<String, Optional<Sharding>> declared;

    private final ShardSettings settings;

    private final Clock clock;

    /**
     * Creates the commands.
     * @param jobs the jobs management knows
     * @param declared the shards this node declares for a job, if it declares it with shards
     * @param settings the shards set at run time
     * @param clock the clock
     */
    public ShardCommands(
            ManagedJobs jobs, Function<String, Optional<Sharding>> declared, ShardSettings settings, Clock clock) {
        this.jobs = jobs;
        this.declared = declared;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Sets a sharded job's shards for the cluster, from its next fire on.
     * @param job the job
     * @param count the shards of each fire, 1 to {@link Sharding#MAX}
     * @param params the parameter of each shard that has one, by index; those of the declaration
     *     count no more
     * @param actor who sets them
     * @return what changed
     */
    public Change set(String job, int count, Map<Integer, String> params, String actor) {
        Sharding declaration = sharded(job);
        if (count < 1 || count > Sharding.MAX) {
            throw ManagementException.badInput("shards", "shards must be 1 to " + Sharding.MAX + ", not " + count);
        }
        for (Map.Entry<Integer, String> param : params.entrySet()) {
            if (param.getKey() < 0 || param.getKey() >= count) {
                throw ManagementException.badInput(
                        "shardParams",
                        "a parameter is given for shard " + param.getKey() + ", but the shards are 0 to "
                                + (count - 1));
            }
            if (param.getValue() == null || param.getValue().length() > MAX_PARAM) {
                throw ManagementException.badInput(
                        "shardParams",
                        "shard " + param.getKey() + "'s parameter must be text of at most " + MAX_PARAM
                                + " characters");
            }
        }
        Map<String, Object> before = inForce(job, declaration);
        this.settings.set(job, count, params, actor, this.clock.instant());
        return new Change(job, before, inForce(job, declaration));
    }

    /**
     * Takes back the shards set for a job: its declaration's are in force from its next fire on.
     * @param job the job
     * @return what changed
     */
    public Change reset(String job) {
        this.jobs.existing(job);
        if (this.settings.find(job).isEmpty()) {
            sharded(job);
            throw ManagementException.conflict("'" + job + "' is split into its declared shards already");
        }
        // shards set for a job that no longer declares shards (or is now a broadcast one) are taken
        // back too: left, they would split its fires again should it declare shards once more
        Optional<Sharding> declaration = this.declared.apply(job).filter((declared) -> !declared.broadcast());
        Map<String, Object> before = inForce(job, declaration.orElse(null));
        this.settings.reset(job);
        return new Change(
                job,
                before,
                declaration.map((declared) -> inForce(job, declared)).orElse(null));
    }

    /**
     * Returns the shards a job's fires are split into now.
     * @param job the job
     * @return its shards, or empty if it is not a sharded job (a broadcast job is not)
     */
    public Optional<Shards> view(String job) {
        return this.declared
                .apply(job)
                .filter((declaration) -> !declaration.broadcast())
                .map((declaration) -> {
                    Optional<ShardSettings.Set> set = this.settings.find(job);
                    return new Shards(
                            set.map(ShardSettings.Set::count).orElse(declaration.count()),
                            set.map(ShardSettings.Set::params).orElse(declaration.params()),
                            declaration.count(),
                            declaration.params(),
                            set.map(ShardSettings.Set::setBy).orElse(null),
                            set.map(ShardSettings.Set::setAt).orElse(null));
                });
    }

    /** The shards a job declares, if it is a sharded job: not a broadcast one, nor one without shards. */
    private Sharding sharded(String job) {
        this.jobs.existing(job);
        Sharding declaration = this.declared
                .apply(job)
                .orElseThrow(() -> ManagementException.conflict(
                        "'" + job + "' declares no shards; only a job declared with shards takes others"));
        if (declaration.broadcast()) {
            throw ManagementException.conflict(
                    "'" + job + "' is a broadcast job: its shards are the live nodes that run it");
        }
        return declaration;
    }

    /**
     * The shards in force for a job, for a change's before and after: those set, or else the
     * declaration's (which may be {@code null} only while some are set).
     */
    private Map<String, Object> inForce(String job, Sharding declaration) {
        Optional<ShardSettings.Set> set = this.settings.find(job);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("shards", set.map(ShardSettings.Set::count).orElseGet(() -> declaration.count()));
        // as JSON text, which the endpoint masks and sanitizes as it does parameters
        state.put(
                "shardParams",
                JSON.writeValueAsString(
                        new TreeMap<>(set.map(ShardSettings.Set::params).orElseGet(() -> declaration.params()))));
        state.put("setBy", set.map(ShardSettings.Set::setBy).orElse(null));
        return state;
    }
}
