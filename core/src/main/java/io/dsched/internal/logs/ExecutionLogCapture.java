package io.dsched.internal.logs;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;

/**
 * Captures what each attempt on this node logs and keeps it in {@code dsched_execution_log}, with
 * the stack trace of a failure. Capture starts when the attempt's method is about to run and ends
 * when its outcome is recorded; only the events of the attempt's own thread are captured, not those
 * of threads the job hands work to, nor those of loggers that do not pass events on to the root
 * logger. An attempt that logged nothing and succeeded costs no write.
 */
public final class ExecutionLogCapture implements ExecutionListener, AutoCloseable {

    /** Longest stack trace kept, in characters, as in a dead letter. */
    static final int MAX_STACK_TRACE = 16_000;

    private static final Logger logger = LoggerFactory.getLogger(ExecutionLogCapture.class);

    private final ExecutionLogs logs;

    private final ExecutionLogAppender appender;

    private final int maxBytes;

    private final Clock clock;

    private volatile boolean closed;

    /**
     * Creates the capture and attaches it to Logback's root logger.
     * @param logs where captured logs are kept
     * @param level the name of the least level of the events captured: {@code TRACE} to
     *     {@code ERROR} ({@code FATAL} counts as {@code ERROR}, as Logback has no FATAL), or {@code OFF}
     * @param maxSize the most text kept per attempt
     * @param clock the clock
     */
    public ExecutionLogCapture(ExecutionLogs logs, String level, DataSize maxSize, Clock clock) {
        this.logs = logs;
        this.maxBytes = (int) Math.min(Integer.MAX_VALUE, maxSize.toBytes());
        this.clock = clock;
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            // Logback has no FATAL: it logs those events as ERROR
            this.appender = new ExecutionLogAppender(context, Level.toLevel(level, Level.ERROR));
            this.appender.attach();
        } else {
            logger.info(
                    "Not capturing the logs of attempts: SLF4J logs to {}, not Logback; set dsched.logs.capture=false",
                    factory.getClass().getName());
            this.appender = null;
        }
    }

    @Override
    public void started(ExecutionRecord attempt, Instant startedAt) {
        if (this.appender == null || this.closed) {
            return;
        }
        this.appender.attach();
        // replaces the buffer of an attempt whose outcome could not be recorded, if any: its
        // finished never came
        this.appender.begin(new LogBuffer(attempt.id(), this.maxBytes));
    }

    @Override
    public void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {
        if (this.appender == null) {
            return;
        }
        LogBuffer buffer = this.appender.end();
        if (buffer == null || buffer.executionId() != attempt.id() || (buffer.isEmpty() && failure == null)) {
            return;
        }
        try {
            this.logs.save(new ExecutionLog(
                    attempt.id(),
                    attempt.jobName(),
                    buffer.text().lines().toList(),
                    (failure != null) ? stackTrace(failure) : null,
                    buffer.isTruncated(),
                    this.clock.instant()));
        } catch (RuntimeException ex) {
            logger.warn(
                    "Could not keep the log of attempt {} of '{}' (execution {}): {}",
                    attempt.attempt(),
                    attempt.jobName(),
                    attempt.id(),
                    ex.getMessage());
        }
    }

    private static String stackTrace(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return (text.getBuffer().length() <= MAX_STACK_TRACE)
                ? text.toString()
                : text.getBuffer().substring(0, MAX_STACK_TRACE - 1) + "…";
    }

    /** Detaches the capture from Logback's root logger. */
    @Override
    public void close() {
        this.closed = true;
        if (this.appender != null) {
            this.appender.detach();
        }
    }
}
