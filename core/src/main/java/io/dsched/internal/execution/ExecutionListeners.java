package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Every {@link ExecutionListener} of the application, each called so that its failure stays its own. */
public final class ExecutionListeners implements ExecutionListener {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionListeners.class);

    private final List<ExecutionListener> listeners;

    /**
     * Creates the composite.
     * @param listeners the listeners, called in this order
     */
    public ExecutionListeners(List<ExecutionListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void started(ExecutionRecord attempt, Instant startedAt) {
        each((listener) -> listener.started(attempt, startedAt));
    }

    @Override
    public void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {
        each((listener) -> listener.finished(attempt, outcome, duration, failure));
    }

    @Override
    public void skipped(String jobName, SkipReason reason) {
        each((listener) -> listener.skipped(jobName, reason));
    }

    private void each(Consumer<ExecutionListener> call) {
        for (ExecutionListener listener : this.listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException ex) {
                logger.warn("Execution listener {} failed; the attempt is not affected", listener, ex);
            }
        }
    }
}
