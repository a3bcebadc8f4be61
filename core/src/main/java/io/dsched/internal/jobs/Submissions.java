package io.dsched.internal.jobs;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.HeldKey;
import io.dsched.internal.store.UniqueKeys;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.ScheduledJob;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The attempts a call of the application creates: one-off jobs, alone or in batches, and runs of a
 * scheduled job triggered by hand. Each is stored waiting, under its idempotency key; one due now
 * is announced to the nodes that run it ({@link DueNotice}).
 */
final class Submissions {

    private final Payloads payloads;

    private final ExecutionStore store;

    private final SubmissionObserver observer;

    private final UniqueKeys uniqueKeys;

    private final String nodeId;

    private final Clock clock;

    private final DueNotice dueNotice;

    Submissions(
            Payloads payloads,
            ExecutionStore store,
            SubmissionObserver observer,
            UniqueKeys uniqueKeys,
            String nodeId,
            Clock clock,
            DueNotice dueNotice) {
        this.payloads = payloads;
        this.store = store;
        this.observer = observer;
        this.uniqueKeys = uniqueKeys;
        this.nodeId = nodeId;
        this.clock = clock;
        this.dueNotice = dueNotice;
    }

    ScheduledJob submit(OneOff request) {
        Checked checked = check(request);
        return this.observer.observe(
                checked.handler().name(), 1, (traceCarrier) -> submit(checked, request, traceCarrier));
    }

    /** A request's handler, its payload written, and its limit key: all a submission checks before it stores. */
    private Checked check(OneOff request) {
        HandlerDefinition handler = this.payloads.handler(request.handler());
        String payload = this.payloads.write(handler, request.payload());
        return new Checked(handler, payload, this.payloads.limitKey(handler, payload));
    }

    private ScheduledJob submit(Checked checked, OneOff request, String traceCarrier) {
        HandlerDefinition handler = checked.handler();
        String payload = checked.payload();
        Instant now = this.clock.instant();
        Instant dueAt = request.dueAt(now);
        String key = handler.name() + ":" + ((request.key() != null) ? request.key() : TimeOrderedKeys.next(now));
        if (request.uniqueWindow() != null) {
            Optional<HeldKey> held = this.uniqueKeys.held(key, now);
            if (held.isPresent()) {
                return new ScheduledJob(
                        held.get().executionId(),
                        handler.name(),
                        key,
                        held.get().dueAt(),
                        false);
            }
        }
        ExecutionRecord first = queued(
                ExecutionRecord.waiting(
                        handler.name(), dueAt, 1, key, ExecutionOrigin.ONE_OFF, this.nodeId, now, dueAt, payload, null),
                checked,
                request);
        Optional<ExecutionRecord> saved = (request.uniqueWindow() != null)
                ? this.uniqueKeys.claimHeld(
                        () -> this.store.inserts().claim(first, traceCarrier),
                        key,
                        dueAt,
                        now.plus(request.uniqueWindow()))
                : this.store.inserts().claim(first, traceCarrier);
        if (saved.isPresent()) {
            if (!dueAt.isAfter(now)) {
                this.dueNotice.due(List.of(handler.name()));
            }
            return new ScheduledJob(saved.get().id(), handler.name(), key, dueAt, true);
        }
        ExecutionRecord existing =
                this.store.repository().findByIdempotencyKey(key).get(0);
        return new ScheduledJob(existing.id(), handler.name(), key, existing.scheduledAt(), false);
    }

    List<ScheduledJob> submitAll(List<OneOff> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        Instant now = this.clock.instant();
        List<Checked> checks = new ArrayList<>(requests.size());
        List<ExecutionRecord> unkeyed = new ArrayList<>();
        for (OneOff request : requests) {
            Checked checked = check(request);
            HandlerDefinition handler = checked.handler();
            String payload = checked.payload();
            checks.add(checked);
            if (request.key() == null) {
                Instant dueAt = request.dueAt(now);
                unkeyed.add(queued(
                        ExecutionRecord.waiting(
                                handler.name(),
                                dueAt,
                                1,
                                handler.name() + ":" + TimeOrderedKeys.next(now),
                                ExecutionOrigin.ONE_OFF,
                                this.nodeId,
                                now,
                                dueAt,
                                payload,
                                null),
                        checked,
                        request));
            }
        }
        List<String> names = checks.stream()
                .map((checked) -> checked.handler().name())
                .distinct()
                .toList();
        String job = (names.size() == 1) ? names.get(0) : "several";
        List<ScheduledJob> scheduled = this.observer.observe(job, requests.size(), (traceCarrier) -> {
            Iterator<ExecutionRecord> saved =
                    this.store.inserts().insertAll(unkeyed, traceCarrier).iterator();
            List<ScheduledJob> jobs = new ArrayList<>(requests.size());
            for (int i = 0; i < requests.size(); i++) {
                OneOff request = requests.get(i);
                if (request.key() == null) {
                    ExecutionRecord row = saved.next();
                    jobs.add(new ScheduledJob(row.id(), row.jobName(), row.idempotencyKey(), row.scheduledAt(), true));
                } else {
                    jobs.add(submit(checks.get(i), request, traceCarrier));
                }
            }
            return jobs;
        });
        List<String> due = unkeyed.stream()
                .filter((row) -> !row.dueAt().isAfter(now))
                .map(ExecutionRecord::jobName)
                .distinct()
                .toList();
        if (!due.isEmpty()) {
            this.dueNotice.due(due);
        }
        return scheduled;
    }

    /** A one-off's first attempt with the order it is claimed in and the key its limit counts it by. */
    private static ExecutionRecord queued(ExecutionRecord first, Checked checked, OneOff request) {
        int priority = (request.priority() != null)
                ? request.priority()
                : checked.handler().priority();
        return first.queued(priority, checked.limitKey());
    }

    /**
     * A request checked before anything is stored.
     * @param handler its handler
     * @param payload its payload as JSON, or {@code null}
     * @param limitKey the key its handler's concurrency limit counts it by, or {@code null}
     */
    private record Checked(HandlerDefinition handler, String payload, String limitKey) {}

    /** A run of a scheduled job now, outside its schedule, with its payload written already. */
    ScheduledJob manual(String job, String payload) {
        Instant now = this.clock.instant();
        String key = ExecutionRecord.idempotencyKey(job, now) + "#manual-"
                + UUID.randomUUID().toString().substring(0, 8);
        ExecutionRecord run = this.observer.observe(job, 1, (traceCarrier) -> this.store
                .inserts()
                .claim(
                        ExecutionRecord.waiting(
                                job,
                                now,
                                1,
                                key,
                                ExecutionOrigin.MANUAL,
                                this.nodeId,
                                now,
                                now,
                                payload,
                                "triggered by hand"),
                        traceCarrier)
                .orElseThrow());
        this.dueNotice.due(List.of(job));
        return new ScheduledJob(run.id(), job, key, now, true);
    }
}
