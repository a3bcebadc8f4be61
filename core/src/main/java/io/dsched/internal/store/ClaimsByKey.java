package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * Claims the due attempts of a target whose limits count each limit key apart ({@code partitionBy}),
 * under the lock of the target's row that {@link LimitedClaims} holds: no more attempts of a key
 * than its slots left, read from the key's attempts running, and than the tokens of its bucket, kept
 * in {@code dsched_limit_key}. Each round reads the next due attempts of the keys not yet full, past
 * those it read, so that a key's backlog does not hide the attempts of the others behind it.
 */
final class ClaimsByKey {

    private static final String RUNNING_BY_KEY = """
            SELECT COALESCE(limit_key, '') AS limit_key, COUNT(*) AS running FROM dsched_execution
             WHERE status = 'RUNNING' AND job_name = ? GROUP BY COALESCE(limit_key, '')
            """;

    /** How many times a claim by key reads further due attempts, past those of keys it found full. */
    private static final int KEY_ROUNDS = 4;

    /** The most keys without room a claim names to read past in the database. */
    private static final int MOST_FULL_KEYS = 1_000;

    private final ExecutionRows rows;

    ClaimsByKey(ExecutionRows rows) {
        this.rows = rows;
    }

    /**
     * Claims due attempts of a target by key, under the lock of its row.
     * @param nodeId the claiming node
     * @param at the time of the claim
     * @param room how many at most, for the target as a whole
     * @param name the target
     * @param maxConcurrent the most running at once of each key, or 0
     * @param keyRate the bucket of each key, or {@code null}
     * @param attempts takes the attempts claimed
     */
    void claim(
            String nodeId,
            Instant at,
            int room,
            String name,
            int maxConcurrent,
            TargetLimits.PerPeriod keyRate,
            List<ExecutionRecord> attempts) {
        if (room <= 0) {
            return;
        }
        Keys keys = new Keys(maxConcurrent, keyRate);
        if (maxConcurrent > 0) {
            this.rows.jdbc.query(
                    this.rows.tables.sql(RUNNING_BY_KEY),
                    (row) -> {
                        keys.running.put(row.getString("limit_key"), row.getInt("running"));
                    },
                    name);
        }
        if (keyRate != null) {
            readBuckets(name, keyRate, at, keys);
        }
        List<Long> read = new ArrayList<>();
        for (int round = 0; round < KEY_ROUNDS && attempts.size() < room; round++) {
            int wanted = 2 * (room - attempts.size());
            List<String> full = keys.full();
            // past a thousand keys the statement would carry too many values: they are passed over here
            List<ExecutionRecord> candidates =
                    dueOfKeys(at, wanted, name, (full.size() <= MOST_FULL_KEYS) ? full : List.of(), read);
            for (ExecutionRecord candidate : candidates) {
                read.add(candidate.id());
                String key = (candidate.limitKey() != null) ? candidate.limitKey() : "";
                if (attempts.size() < room
                        && keys.room(key) > 0
                        && LimitedClaims.claim(this.rows, candidate, nodeId, at, attempts)) {
                    keys.take(key);
                }
            }
            if (candidates.size() < wanted) {
                break;
            }
        }
        if (keyRate != null) {
            writeBuckets(name, at, keys);
        }
    }

    /** Reads the buckets of the target's keys with a row; a key's row that is full again is deleted. */
    private void readBuckets(String name, TargetLimits.PerPeriod keyRate, Instant at, Keys keys) {
        long periodMillis = keyRate.period().toMillis();
        boolean anyFull = false;
        List<Map<String, Object>> found = new ArrayList<>();
        this.rows.jdbc.query(
                this.rows.tables.sql("SELECT limit_key, tokens, refilled_at FROM dsched_limit_key WHERE name = ?"),
                (row) -> {
                    found.add(Map.of(
                            "key", row.getString("limit_key"),
                            "tokens", row.getDouble("tokens"),
                            "at", this.rows.dialect.readInstant(row, "refilled_at")));
                },
                name);
        for (Map<String, Object> row : found) {
            double tokens = Buckets.refilled(
                    (Double) row.get("tokens"), (Instant) row.get("at"), keyRate.permits(), periodMillis, at);
            if (tokens >= keyRate.permits()) {
                anyFull = true;
            } else {
                keys.tokens.put((String) row.get("key"), tokens);
                keys.refilledAt.put((String) row.get("key"), (Instant) row.get("at"));
            }
        }
        if (anyFull) {
            // a bucket untouched for a whole period is full, as a key without a row is
            this.rows.jdbc.update(
                    this.rows.tables.sql("DELETE FROM dsched_limit_key WHERE name = ? AND refilled_at <= ?"),
                    name,
                    this.rows.dialect.bindable(at.minus(Duration.ofMillis(periodMillis))));
        }
    }

    private void writeBuckets(String name, Instant at, Keys keys) {
        for (String key : keys.taken) {
            double tokens = keys.tokens.get(key);
            // a bucket's time only goes forward, whichever node's clock last refilled it
            Instant last = keys.refilledAt.get(key);
            Object when = this.rows.dialect.bindable((last != null && last.isAfter(at)) ? last : at);
            int updated = this.rows.jdbc.update(
                    this.rows.tables.sql(
                            "UPDATE dsched_limit_key SET tokens = ?, refilled_at = ? WHERE name = ? AND limit_key = ?"),
                    tokens,
                    when,
                    name,
                    key);
            if (updated == 0) {
                // no other node writes the key meanwhile: it waits for the lock this claim holds
                this.rows.jdbc.update(
                        this.rows.tables.sql(
                                "INSERT INTO dsched_limit_key (name, limit_key, tokens, refilled_at) VALUES (?, ?, ?, ?)"),
                        name,
                        key,
                        tokens,
                        when);
            }
        }
    }

    /** The due attempts of a target, first in claim order, but for those of full keys and those read. */
    private List<ExecutionRecord> dueOfKeys(
            Instant at, int limit, String name, Collection<String> full, Collection<Long> read) {
        MapSqlParameterSource parameters = this.rows
                .dueParameters(at, limit, List.of(name))
                .addValue("full", full)
                .addValue("read", read);
        String where = "due_at <= :now AND job_name IN (:names)"
                + (full.isEmpty() ? "" : " AND COALESCE(limit_key, '') NOT IN (:full)")
                + (read.isEmpty() ? "" : " AND id NOT IN (:read)");
        String sql = PriorityBands.union("*", this.rows.dialect.waiting(where));
        return this.rows.named.query(sql, parameters, this.rows::mapRow);
    }

    /** What each key has left: its slots, from its attempts running, and the tokens of its bucket. */
    private static final class Keys {

        private final int maxConcurrent;

        private final TargetLimits.PerPeriod keyRate;

        private final Map<String, Integer> running = new HashMap<>();

        /** The tokens of the keys whose bucket is not full; a key not here has a full bucket. */
        private final Map<String, Double> tokens = new HashMap<>();

        /** When the buckets of those keys were last refilled. */
        private final Map<String, Instant> refilledAt = new HashMap<>();

        /** The keys this claim took tokens of. */
        private final Set<String> taken = new HashSet<>();

        Keys(int maxConcurrent, TargetLimits.PerPeriod keyRate) {
            this.maxConcurrent = maxConcurrent;
            this.keyRate = keyRate;
        }

        int room(String key) {
            int room = Integer.MAX_VALUE;
            if (this.maxConcurrent > 0) {
                room = this.maxConcurrent - this.running.getOrDefault(key, 0);
            }
            if (this.keyRate != null) {
                room = Math.min(room, (int) Math.floor(this.tokens.getOrDefault(key, (double) this.keyRate.permits())));
            }
            return room;
        }

        void take(String key) {
            this.running.merge(key, 1, Integer::sum);
            if (this.keyRate != null) {
                this.tokens.put(key, this.tokens.getOrDefault(key, (double) this.keyRate.permits()) - 1);
                this.taken.add(key);
            }
        }

        List<String> full() {
            Set<String> known = new HashSet<>(this.running.keySet());
            known.addAll(this.tokens.keySet());
            return known.stream().filter((key) -> room(key) <= 0).sorted().toList();
        }
    }
}
