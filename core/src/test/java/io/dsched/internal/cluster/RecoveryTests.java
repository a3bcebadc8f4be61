package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.ExecutionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What takes the place of an attempt whose node was lost: a re-run, once, as a recovery; a dead
 * letter when the lost attempt was a recovery that used up the job's attempts.
 */
class RecoveryTests {

    private static final Instant FIRE = Instant.parse("2031-01-01T00:00:00Z");

    private static final Instant NOW = FIRE.plusSeconds(30);

    @Test
    void anAttemptLostWithItsNodeIsReRunOnThisNodeAsARecoveryDueNow() {
        ExecutionRecord orphan =
                ExecutionRecord.claim("settle", FIRE, "node-2", FIRE).withId(5);
        ExecutionRecord next = Recovery.rerunOf(orphan, job(3), "node-1", NOW, "node node-2 died");
        assertThat(next.attempt()).isEqualTo(2);
        assertThat(next.origin()).isEqualTo(ExecutionOrigin.RECOVERY);
        assertThat(next.idempotencyKey()).isEqualTo(orphan.idempotencyKey());
        assertThat(next.status()).isEqualTo(ExecutionStatus.RETRY_SCHEDULED);
        assertThat(next.dueAt()).isEqualTo(NOW);
        assertThat(next.statusReason()).isEqualTo("recovery of attempt 1: node node-2 died");
    }

    @Test
    void aFireItsLostNodeClaimedAheadOfItsTimeIsReRunAtThatTimeNotBefore() {
        Instant later = NOW.plusSeconds(2);
        ExecutionRecord claimedAhead =
                ExecutionRecord.claim("settle", later, "node-2", later).withId(5);
        assertThat(Recovery.rerunOf(claimedAhead, job(3), "node-1", NOW, "died").dueAt())
                .isEqualTo(later);
    }

    @Test
    void aLostRecoveryIsReRunWhileTheJobHasAttemptsLeftAndDeadLetteredWhenNot() {
        ExecutionRecord lostRecovery = recoveryAttempt(2);
        assertThat(Recovery.rerunOf(lostRecovery, job(3), "node-1", NOW, "died"))
                .isNotNull();
        assertThat(Recovery.rerunOf(lostRecovery, job(2), "node-1", NOW, "died"))
                .isNull();
        assertThat(Recovery.rerunOf(recoveryAttempt(3), job(2), "node-1", NOW, "died"))
                .isNull();
    }

    @Test
    void aLostFirstAttemptOrRetryIsReRunWhateverItsAttemptCount() {
        ExecutionRecord retry = ExecutionRecord.claim("settle", FIRE, "node-2", FIRE)
                .next(ExecutionOrigin.RETRY, "node-2", FIRE, FIRE, "retry")
                .withId(5);
        assertThat(Recovery.rerunOf(retry, job(2), "node-1", NOW, "died")).isNotNull();
    }

    @Test
    void aLostRecoveryOfAJobThisNodeDoesNotDeclareIsReRunByANodeThatDoes() {
        assertThat(Recovery.rerunOf(recoveryAttempt(5), null, "node-1", NOW, "died"))
                .isNotNull();
    }

    @Test
    void theDeadLetterOfALostAttemptNamesItsNodeAndTheLoss() {
        ExecutionRecord orphan = recoveryAttempt(2);
        DeadLetter letter = Recovery.letterOf(orphan, "node node-2 died while running it (gone)", NOW);
        assertThat(letter.jobName()).isEqualTo("settle");
        assertThat(letter.idempotencyKey()).isEqualTo(orphan.idempotencyKey());
        assertThat(letter.attempts()).isEqualTo(2);
        assertThat(letter.errorClass()).isEqualTo(ExecutionStore.NodeLostException.class.getName());
        assertThat(letter.nodeId()).isEqualTo("node-2");
        assertThat(letter.status()).isEqualTo(DeadLetterStatus.OPEN);
    }

    private static ExecutionRecord recoveryAttempt(int attempt) {
        ExecutionRecord row = ExecutionRecord.claim("settle", FIRE, "node-2", FIRE);
        for (int i = 1; i < attempt; i++) {
            row = row.next(ExecutionOrigin.RECOVERY, "node-2", FIRE, FIRE, "recovery");
        }
        return row.withId(5);
    }

    private static JobTarget job(int maxAttempts) {
        RetryPolicy retry = new RetryPolicy(
                maxAttempts, Duration.ofSeconds(1), 2.0, Duration.ofSeconds(10), Duration.ZERO, List.of(), List.of());
        return new JobTarget(
                "settle", NodeGroups.DEFAULT, retry, null, false, null, null, null, null, (context, payload) -> {});
    }
}
