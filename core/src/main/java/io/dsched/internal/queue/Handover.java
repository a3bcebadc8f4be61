package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the attempts of one claim to the workers. Each is held (in flight on this node) before it is
 * handed over, so that the sweep of stale attempts does not take back one waiting for a worker.
 *
 * <p>The workers refuse attempts once they are shut down, which happens while a claim is still in
 * flight when the shutdown timeout runs out. The attempts not handed over are then put back to wait,
 * due at once, for any node to claim (the write applies only while the attempt is still running on
 * this node), and let go, their places in the intake free again. Should putting one back fail, it is
 * taken over as the attempt of a dead node once this node has left the cluster.
 */
final class Handover {

    private static final Logger logger = LoggerFactory.getLogger(Handover.class);

    private final Executor workers;

    private final Intake intake;

    private final LongConsumer hold;

    private final LongConsumer letGo;

    private final Consumer<ExecutionRecord> putBack;

    /**
     * Creates a handover.
     * @param workers run the attempts
     * @param intake counts the attempts claimed and not yet finished
     * @param hold marks an attempt as in flight on this node
     * @param letGo marks it as no longer in flight
     * @param putBack makes an attempt this node will not run wait again, for any node to claim
     */
    Handover(
            Executor workers, Intake intake, LongConsumer hold, LongConsumer letGo, Consumer<ExecutionRecord> putBack) {
        this.workers = workers;
        this.intake = intake;
        this.hold = hold;
        this.letGo = letGo;
        this.putBack = putBack;
    }

    /**
     * Hands claimed attempts to the workers, which run each with {@code run}.
     * @param attempts the attempts, claimed by this node and counted by the intake
     * @param run what a worker does with one
     * @return how many the workers took
     */
    int handOver(List<ExecutionRecord> attempts, Consumer<ExecutionRecord> run) {
        for (int i = 0; i < attempts.size(); i++) {
            ExecutionRecord attempt = attempts.get(i);
            this.hold.accept(attempt.id());
            try {
                this.workers.execute(() -> run.accept(attempt));
            } catch (RejectedExecutionException ex) {
                List<ExecutionRecord> refused = attempts.subList(i, attempts.size());
                logger.warn("The workers have stopped: {} claimed attempts wait again", refused.size());
                refused.forEach(this::giveBack);
                this.intake.dropped(refused.size());
                return i;
            }
        }
        return attempts.size();
    }

    private void giveBack(ExecutionRecord attempt) {
        try {
            this.putBack.accept(attempt);
        } catch (RuntimeException ex) {
            logger.warn(
                    "Could not put back attempt {} of '{}'; it is taken over once this node has left: {}",
                    attempt.attempt(),
                    attempt.jobName(),
                    ex.getMessage());
        } finally {
            this.letGo.accept(attempt.id());
        }
    }
}
