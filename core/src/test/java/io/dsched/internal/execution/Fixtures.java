package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Jobs and claims for the engine's unit tests, which need no database. */
final class Fixtures {

    static final Instant FIRE = Instant.parse("2031-01-01T00:00:00Z");

    private Fixtures() {}

    static RetryPolicy retries(int maxAttempts) {
        return new RetryPolicy(
                maxAttempts, Duration.ofSeconds(2), 2.0, Duration.ofSeconds(30), Duration.ZERO, List.of(), List.of());
    }

    static JobTarget job(String name, RetryPolicy retry, boolean guarded, Duration timeout, JobTarget.Invoker invoker) {
        return new JobTarget(name, NodeGroups.DEFAULT, retry, timeout, guarded, null, null, null, null, invoker);
    }

    static JobTarget job(String name, boolean guarded) {
        return job(name, retries(1), guarded, null, (context, payload) -> {});
    }

    /** A target of a group, run once, that does nothing. */
    static JobTarget inGroup(String name, String group) {
        return new JobTarget(name, group, retries(1), null, false, null, null, null, null, (context, payload) -> {});
    }

    /** The targets of a node, by name. */
    static JobTargets targets(JobTarget... targets) {
        Map<String, JobTarget> byName = new LinkedHashMap<>();
        for (JobTarget target : targets) {
            byName.put(target.name(), target);
        }
        return new JobTargets() {

            @Override
            public Optional<JobTarget> find(String name) {
                return Optional.ofNullable(byName.get(name));
            }

            @Override
            public Set<String> names() {
                return byName.keySet();
            }
        };
    }

    static ExecutionRecord claim(String jobName, int attempt, long id) {
        ExecutionRecord first =
                ExecutionRecord.claim(jobName, FIRE, "node-1", FIRE).withId(id);
        ExecutionRecord claim = first;
        for (int i = 1; i < attempt; i++) {
            claim = claim.next(io.dsched.execution.ExecutionOrigin.RETRY, "node-1", FIRE, FIRE, "retry")
                    .withId(id);
        }
        return claim;
    }

    static Attempt attempt(JobTarget job, ExecutionRecord claim) {
        return new Attempt(claim, job, null);
    }
}
