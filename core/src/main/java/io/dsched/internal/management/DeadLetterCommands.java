package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.deadletter.ReplayRefusedException;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Replays and discards of dead letters from the management endpoint: several at once, all or
 * none. Roles and the audit log are the endpoint's concern.
 */
public class DeadLetterCommands {

    private final DeadLetters deadLetters;

    private final TransactionTemplate transactions;

    /**
     * Creates the commands.
     * @param deadLetters the dead letters
     * @param transactions transactions on dsched's database
     */
    public DeadLetterCommands(DeadLetters deadLetters, TransactionTemplate transactions) {
        this.deadLetters = deadLetters;
        this.transactions = transactions;
    }

    /**
     * Replays open dead letters, all or none.
     * @param ids the letters
     * @param actor who replays them
     * @param reason why
     * @return what changed: the new attempt of each letter
     * @throws ManagementException (404) for an unknown letter, (409) for one that is not open or
     *     a broadcast job's whose node does not run it; nothing is replayed then
     */
    public Change replay(List<Long> ids, String actor, String reason) {
        List<Long> letters = checkOpen(ids);
        Map<Long, Long> replays = new LinkedHashMap<>();
        try {
            inOneTransaction(() -> {
                for (long id : letters) {
                    ExecutionRecord attempt = this.deadLetters
                            .replay(id, actor, reason)
                            .orElseThrow(
                                    () -> ManagementException.conflict("Dead letter " + id + " is no longer open"));
                    replays.put(id, attempt.id());
                }
            });
        } catch (ReplayRefusedException ex) {
            throw ManagementException.conflict(ex.getMessage());
        }
        return new Change(join(letters), Map.of("status", DeadLetterStatus.OPEN), Map.of("replays", replays));
    }

    /**
     * Discards open dead letters, all or none.
     * @param ids the letters
     * @param actor who discards them
     * @param reason why; required
     * @return what changed
     * @throws ManagementException (400) without a reason, (404) for an unknown letter, (409) for
     *     one that is not open; nothing is discarded then
     */
    public Change discard(List<Long> ids, String actor, String reason) {
        if (reason == null || reason.isBlank()) {
            throw ManagementException.badInput("reason", "A reason is required to discard a dead letter");
        }
        List<Long> letters = checkOpen(ids);
        inOneTransaction(() -> {
            for (long id : letters) {
                if (!this.deadLetters.discard(id, actor, reason)) {
                    throw ManagementException.conflict("Dead letter " + id + " is no longer open");
                }
            }
        });
        return new Change(
                join(letters), Map.of("status", DeadLetterStatus.OPEN), Map.of("status", DeadLetterStatus.DISCARDED));
    }

    private void inOneTransaction(Runnable change) {
        this.transactions.executeWithoutResult((status) -> change.run());
    }

    private static String join(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private List<Long> checkOpen(List<Long> given) {
        List<Long> ids = given.stream().distinct().toList();
        if (ids.isEmpty()) {
            throw ManagementException.badInput("ids", "Name at least one dead letter");
        }
        for (long id : ids) {
            DeadLetter letter = this.deadLetters
                    .find(id)
                    .orElseThrow(() -> ManagementException.notFound("No dead letter with id " + id));
            if (letter.status() != DeadLetterStatus.OPEN) {
                throw ManagementException.conflict(
                        "Dead letter " + id + " is " + letter.status() + " already, by " + letter.actedBy());
            }
        }
        return ids;
    }
}
