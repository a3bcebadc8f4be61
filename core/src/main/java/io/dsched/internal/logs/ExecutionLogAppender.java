package io.dsched.internal.logs;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A Logback appender on the root logger that copies each event of a thread running an attempt into
 * that attempt's buffer, formatted as {@code timestamp LEVEL logger - message} and the stack trace
 * of its throwable. Events of any other thread pass by untouched.
 */
final class ExecutionLogAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

    /** The appender's name on the root logger. */
    static final String NAME = "DSCHED_EXECUTION_LOG";

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final ThreadLocal<LogBuffer> buffers = new ThreadLocal<>();

    private final Level threshold;

    private final Logger root;

    ExecutionLogAppender(LoggerContext context, Level threshold) {
        this.threshold = threshold;
        this.root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        setContext(context);
        setName(NAME);
    }

    /** Attaches the appender to the root logger unless it is there: a reset of Logback's configuration removes it. */
    void attach() {
        if (!this.root.isAttached(this)) {
            start();
            this.root.addAppender(this);
        }
    }

    void detach() {
        this.root.detachAppender(this);
        stop();
    }

    /** Starts capturing the events of this thread into a buffer, in place of any it had. */
    void begin(LogBuffer buffer) {
        this.buffers.set(buffer);
    }

    /** Stops capturing the events of this thread. */
    LogBuffer end() {
        LogBuffer buffer = this.buffers.get();
        this.buffers.remove();
        return buffer;
    }

    @Override
    protected void append(ILoggingEvent event) {
        LogBuffer buffer = this.buffers.get();
        if (buffer == null || !event.getLevel().isGreaterOrEqual(this.threshold)) {
            return;
        }
        if (buffer.isTruncated()) {
            buffer.leaveOut();
            return;
        }
        buffer.append(format(event));
    }

    static String format(ILoggingEvent event) {
        String line = TIMESTAMP.format(event.getInstant()) + " " + event.getLevel() + " " + event.getLoggerName()
                + " - " + event.getFormattedMessage();
        IThrowableProxy throwable = event.getThrowableProxy();
        return (throwable != null)
                ? line + "\n" + ThrowableProxyUtil.asString(throwable).stripTrailing()
                : line;
    }
}
