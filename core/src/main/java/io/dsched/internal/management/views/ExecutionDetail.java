package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.store.DeadLetter;
import java.util.List;

/**
 * One attempt, with what it failed with and what it logged.
 *
 * @param execution the attempt
 * @param zone the zone of its job's cron, or {@code null} when the job has none
 * @param attempts every attempt at the same fire, oldest first
 * @param deadLetter the dead letter the fire ended in last, or {@code null}
 * @param deadLetters every dead letter of the fire, oldest first: a replay that failed again ends in
 *     a new letter, the one after the letter it replayed
 * @param log the lines the attempt logged and its failure's stack trace, or {@code null}
 * @param waitingFor why an attempt due and waiting is not claimed, such as {@code "a slot: 3 of 3
 *     running"}, or {@code null}
 */
public record ExecutionDetail(
        ExecutionRecord execution,
        String zone,
        List<ExecutionRecord> attempts,
        DeadLetter deadLetter,
        List<DeadLetter> deadLetters,
        Object log,
        String waitingFor) {}
