package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.quartz.JobKey;
import org.quartz.TriggerKey;

/**
 * The row locks by which the {@link SkipLockedJobStore} orders its transactions without Quartz's
 * cluster-wide lock: a job's row in {@code JOB_DETAILS} stands for the job and all its triggers, a
 * trigger's row in {@code TRIGGERS} for the trigger. A transaction that takes several locks takes
 * jobs before triggers, each table's with one statement that locks its rows in the database's
 * order of their keys, so that two such transactions never wait for each other in a circle while
 * each locks at most {@link #CHUNK} rows of a table; a fire of a batch of triggers takes its
 * locks in two statements, not two per trigger.
 */
final class RowLocks {

    /**
     * The most keys one statement locks. MariaDB turns an {@code IN} list of 1,000 values or more
     * (500 pairs) into a join with a table of the values, which locks rows in the join's order,
     * not the primary key's.
     */
    static final int CHUNK = 250;

    private final String prefix;

    private final String schedulerName;

    RowLocks(String prefix, String schedulerName) {
        this.prefix = prefix;
        this.schedulerName = schedulerName;
    }

    /**
     * Locks the rows of jobs, in the database's order of their keys; a job that no longer exists
     * has no row to lock.
     * @param conn the transaction's connection
     * @param jobs the jobs
     * @throws SQLException if a lock cannot be had
     */
    void lockJobs(Connection conn, Collection<JobKey> jobs) throws SQLException {
        jobRows(conn, jobs, " FOR UPDATE");
    }

    /**
     * Locks the rows of triggers, in the database's order of their keys; a trigger deleted
     * meanwhile has no row to lock.
     * @param conn the transaction's connection
     * @param triggers the triggers
     * @throws SQLException if a lock cannot be had
     */
    void lockTriggers(Connection conn, Collection<TriggerKey> triggers) throws SQLException {
        rows(
                conn,
                "TRIGGERS",
                "TRIGGER_NAME",
                "TRIGGER_GROUP",
                triggers,
                TriggerKey::getName,
                TriggerKey::getGroup,
                " FOR UPDATE",
                TriggerKey::new);
    }

    /**
     * Locks the rows of jobs that no other transaction holds, in the database's order of their
     * keys, without waiting for the others.
     * @param conn the transaction's connection
     * @param jobs the jobs
     * @return the jobs whose rows another transaction holds: those neither locked nor gone
     * @throws SQLException if the statements fail
     */
    Set<JobKey> lockJobsNotHeld(Connection conn, Collection<JobKey> jobs) throws SQLException {
        Set<JobKey> locked = jobRows(conn, jobs, " FOR UPDATE SKIP LOCKED");
        List<JobKey> rest = new ArrayList<>(new LinkedHashSet<>(jobs));
        rest.removeAll(locked);
        // of those, the ones that still exist, read without a lock
        return rest.isEmpty() ? Set.of() : jobRows(conn, rest, "");
    }

    private Set<JobKey> jobRows(Connection conn, Collection<JobKey> jobs, String lock) throws SQLException {
        return rows(
                conn,
                "JOB_DETAILS",
                "JOB_NAME",
                "JOB_GROUP",
                jobs,
                JobKey::getName,
                JobKey::getGroup,
                lock,
                JobKey::jobKey);
    }

    /**
     * Reads rows by their keys, one statement per {@link #CHUNK} keys, with a lock clause or none;
     * returns the keys of the rows read. The statement orders its rows by key, so every transaction
     * of this store takes a table's locks in one order, the database's: PostgreSQL locks the rows as
     * they leave the sort, InnoDB as it reads them from the primary key, which has that order. More
     * keys than a chunk are cut in Java's order of names, then groups, which the database's collation
     * need not follow: two such transactions may meet in a deadlock, which the database breaks by
     * failing one of them.
     */
    private <K> Set<K> rows(
            Connection conn,
            String table,
            String nameColumn,
            String groupColumn,
            Collection<K> keys,
            Function<K, String> name,
            Function<K, String> group,
            String lock,
            BiFunction<String, String, K> key)
            throws SQLException {
        List<K> sorted = new ArrayList<>(new LinkedHashSet<>(keys));
        sorted.sort(Comparator.comparing(name).thenComparing(group));
        Set<K> read = new HashSet<>();
        for (int from = 0; from < sorted.size(); from += CHUNK) {
            List<K> chunk = sorted.subList(from, Math.min(sorted.size(), from + CHUNK));
            String pairs = String.join(",", Collections.nCopies(chunk.size(), "(?,?)"));
            String sql = "SELECT " + nameColumn + ", " + groupColumn + " FROM " + this.prefix + table
                    + " WHERE SCHED_NAME = ? AND (" + nameColumn + ", " + groupColumn + ") IN (" + pairs + ")"
                    + " ORDER BY " + nameColumn + ", " + groupColumn + lock;
            try (PreparedStatement statement = conn.prepareStatement(sql)) {
                int index = 1;
                statement.setString(index++, this.schedulerName);
                for (K each : chunk) {
                    statement.setString(index++, name.apply(each));
                    statement.setString(index++, group.apply(each));
                }
                try (ResultSet rows = statement.executeQuery()) {
                    // with a lock clause, each row read is locked
                    while (rows.next()) {
                        read.add(key.apply(rows.getString(1), rows.getString(2)));
                    }
                }
            }
        }
        return read;
    }

    /**
     * Returns the job of a trigger, read without a lock.
     * @param conn the transaction's connection
     * @param trigger the trigger
     * @return its job, or {@code null} if the trigger does not exist
     * @throws SQLException if the read fails
     */
    JobKey jobOf(Connection conn, TriggerKey trigger) throws SQLException {
        String sql = "SELECT JOB_NAME, JOB_GROUP FROM " + this.prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ?";
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, this.schedulerName);
            statement.setString(2, trigger.getName());
            statement.setString(3, trigger.getGroup());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? JobKey.jobKey(rows.getString(1), rows.getString(2)) : null;
            }
        }
    }

    /**
     * Returns the triggers that use a calendar, with their jobs, read without a lock.
     * @param conn the transaction's connection
     * @param calendar the calendar's name
     * @return each trigger's job, by trigger
     * @throws SQLException if the read fails
     */
    Map<TriggerKey, JobKey> triggersOfCalendar(Connection conn, String calendar) throws SQLException {
        String sql = "SELECT TRIGGER_NAME, TRIGGER_GROUP, JOB_NAME, JOB_GROUP FROM " + this.prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND CALENDAR_NAME = ?";
        Map<TriggerKey, JobKey> triggers = new TreeMap<>();
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, this.schedulerName);
            statement.setString(2, calendar);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    triggers.put(
                            TriggerKey.triggerKey(rows.getString(1), rows.getString(2)),
                            JobKey.jobKey(rows.getString(3), rows.getString(4)));
                }
            }
        }
        return triggers;
    }
}
