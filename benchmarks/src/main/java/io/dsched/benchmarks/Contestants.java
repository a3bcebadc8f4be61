package io.dsched.benchmarks;

import io.dsched.benchmarks.contestants.DbSchedulerContestant;
import io.dsched.benchmarks.contestants.DschedContestant;
import io.dsched.benchmarks.contestants.JobRunrContestant;
import io.dsched.benchmarks.contestants.QuartzContestant;
import io.dsched.benchmarks.contestants.ShedLockContestant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Every contestant, by name, in the order the tables list them. */
public final class Contestants {

    private static final Map<String, Supplier<Contestant>> ALL = new LinkedHashMap<>();

    static {
        for (DschedContestant.Variant variant : DschedContestant.Variant.values()) {
            register(() -> new DschedContestant(variant));
        }
        for (QuartzContestant.Variant variant : QuartzContestant.Variant.values()) {
            register(() -> new QuartzContestant(variant));
        }
        for (DbSchedulerContestant.Variant variant : DbSchedulerContestant.Variant.values()) {
            register(() -> new DbSchedulerContestant(variant));
        }
        for (JobRunrContestant.Variant variant : JobRunrContestant.Variant.values()) {
            register(() -> new JobRunrContestant(variant));
        }
        register(ShedLockContestant::new);
    }

    private Contestants() {}

    private static void register(Supplier<Contestant> factory) {
        ALL.put(factory.get().name(), factory);
    }

    /**
     * Returns every contestant's name.
     * @return the names
     */
    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /**
     * Returns one contestant of each kind (the variants of a kind share their tables).
     * @return the contestants
     */
    public static List<Contestant> oneOfEachKind() {
        Map<Class<?>, Contestant> kinds = new LinkedHashMap<>();
        ALL.values().forEach((factory) -> {
            Contestant contestant = factory.get();
            kinds.putIfAbsent(contestant.getClass(), contestant);
        });
        return List.copyOf(kinds.values());
    }

    /**
     * Finds a contestant.
     * @param name its name
     * @return the contestant
     * @throws IllegalArgumentException for an unknown name
     */
    public static Contestant byName(String name) {
        Supplier<Contestant> factory = ALL.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("Unknown contestant '" + name + "'; known: " + ALL.keySet());
        }
        return factory.get();
    }
}
