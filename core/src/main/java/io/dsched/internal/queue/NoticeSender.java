package io.dsched.internal.queue;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends notices on a thread of its own (one at most, gone when idle), so that a caller neither
 * waits for one nor holds a connection while it takes another: jobs handed over while a notice is
 * being sent go together in the next. A notice that cannot be sent is logged; the nodes then find
 * the attempts at their next poll.
 */
final class NoticeSender {

    private static final Logger logger = LoggerFactory.getLogger(NoticeSender.class);

    private final Announcer announcer;

    private final Set<String> pending = new TreeSet<>();

    private boolean sending;

    private final ExecutorService thread =
            new ThreadPoolExecutor(0, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (runnable) -> {
                Thread sender = new Thread(runnable, "dsched-notices");
                sender.setDaemon(true);
                return sender;
            });

    private final Clock clock;

    NoticeSender(Announcer announcer, Clock clock) {
        this.announcer = announcer;
        this.clock = clock;
    }

    /** Sends a notice of these jobs soon. */
    void send(Collection<String> jobNames) {
        synchronized (this.pending) {
            this.pending.addAll(jobNames);
            if (this.sending) {
                return;
            }
            this.sending = true;
        }
        this.thread.execute(this::sendPending);
    }

    private void sendPending() {
        Set<String> jobNames;
        synchronized (this.pending) {
            jobNames = new TreeSet<>(this.pending);
            this.pending.clear();
            this.sending = false;
        }
        try {
            // sent after the commit of every attempt it names, and stamped now: each was due by then
            Instant sentAt = this.clock.instant();
            this.announcer.announce(jobNames.stream()
                    .map((jobName) -> NoticePayload.payload(sentAt, jobName))
                    .toList());
        } catch (Exception ex) {
            logger.warn("Could not announce due attempts of {}: {}", jobNames, ex.getMessage());
        }
    }
}
