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
        HandlerDefinition handler = this.payloads.handler(request.handler());
        String payload = this.payloads.write(handler, request.payload());
        return this.observer.observe(
                handler.name(), 1, (traceCarrier) -> submit(handler, payload, request, traceCarrier));
    }

    private ScheduledJob submit(HandlerDefinition handler, String payload, OneOff request, String traceCarrier) {
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
                handler,
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
        List<HandlerDefinition> handlers = new ArrayList<>(requests.size());
        List<String> payloads = new ArrayList<>(requests.size());
        List<ExecutionRecord> unkeyed = new ArrayList<>();
        for (OneOff request : requests) {
            HandlerDefinition handler = this.payloads.handler(request.handler());
            String payload = this.payloads.write(handler, request.payload());
            handlers.add(handler);
            payloads.add(payload);
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
                        handler,
                        request));
            }
        }
        List<String> names =
                handlers.stream().map(HandlerDefinition::name).distinct().toList();
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
                    jobs.add(submit(handlers.get(i), payloads.get(i), request, traceCarrier));
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
    private ExecutionRecord queued(ExecutionRecord first, HandlerDefinition handler, OneOff request) {
        int priority = (request.priority() != null) ? request.priority() : handler.priority();
        return first.queued(priority, this.payloads.limitKey(handler, first.payload()));
    }

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
