package io.dsched.internal.jobs;

import io.dsched.jobs.RuntimeJobRecord;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.jdbc.BadSqlGrammarException;

/**
 * The runtime jobs as last read from {@code dsched_job}: read again at once after a change made
 * here, and in the background once they are old, for changes made on other nodes.
 */
final class RuntimeJobCache implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(RuntimeJobs.class);

    /** How long the jobs read are used before they are read again, for changes made elsewhere. */
    private static final long CACHE_MILLIS = 5000;

    /** How old the jobs read may be when a job is not among them and they are read again. */
    private static final long MISS_RELOAD_MILLIS = 200;

    private final JdbcAggregateOperations aggregates;

    private final Clock clock;

    private volatile Map<String, RuntimeJobRecord> cache = Map.of();

    private volatile long loadedAt;

    private volatile boolean stale = true;

    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    private final AtomicBoolean refreshing = new AtomicBoolean();

    private final ExecutorService refresher = Executors.newSingleThreadExecutor((task) -> {
        Thread thread = new Thread(task, "dsched-runtime-jobs");
        thread.setDaemon(true);
        return thread;
    });

    RuntimeJobCache(JdbcAggregateOperations aggregates, Clock clock) {
        this.aggregates = aggregates;
        this.clock = clock;
    }

    /** Finds a job among those read, reading them again if it is not there and they are not new. */
    RuntimeJobRecord find(String name) {
        RuntimeJobRecord cached = jobs().get(name);
        // not among those read: perhaps created on another node since
        return (cached != null || this.clock.millis() - this.loadedAt <= MISS_RELOAD_MILLIS)
                ? cached
                : load().get(name);
    }

    /**
     * The jobs read: read now after a change made here; when they are older than {@value
     * #CACHE_MILLIS} ms, read again on a thread of their own while this caller, often a thread
     * about to run a fire, goes on with what was read.
     */
    Map<String, RuntimeJobRecord> jobs() {
        if (this.stale) {
            return load();
        }
        if (this.clock.millis() - this.loadedAt > CACHE_MILLIS && this.refreshing.compareAndSet(false, true)) {
            try {
                this.refresher.execute(this::refresh);
            } catch (RejectedExecutionException ex) {
                // closed: the node stops
                this.refreshing.set(false);
            }
        }
        return this.cache;
    }

    private void refresh() {
        try {
            load();
        } catch (RuntimeException ex) {
            // tried again once the jobs read are older than the cache's life, not on every call
            this.loadedAt = this.clock.millis();
            logger.warn("Could not read the runtime jobs, keeping those read before: {}", ex.toString());
        } finally {
            this.refreshing.set(false);
        }
    }

    /**
     * Reads every runtime job; one thread at a time, the others take what it read. Those told of
     * each read ({@link #whenRead}) are told of one that found the jobs changed, on the thread that
     * read them, once it has let the others in.
     */
    Map<String, RuntimeJobRecord> load() {
        Read read = read();
        if (read.changed()) {
            for (Runnable listener : this.listeners) {
                try {
                    listener.run();
                } catch (RuntimeException ex) {
                    logger.warn("A listener of the runtime jobs read failed: {}", ex.toString());
                }
            }
        }
        return read.jobs();
    }

    /** The jobs read, and whether they differ from those read before. */
    private record Read(Map<String, RuntimeJobRecord> jobs, boolean changed) {}

    /**
     * Tells a listener of each read of the jobs that found them changed.
     * @param listener what to run then
     */
    void whenRead(Runnable listener) {
        this.listeners.add(listener);
    }

    private synchronized Read read() {
        if (!this.stale && this.clock.millis() - this.loadedAt <= MISS_RELOAD_MILLIS) {
            return new Read(this.cache, false);
        }
        // cleared before the read: a change made while reading marks the result stale again
        boolean changed = this.stale;
        this.stale = false;
        Map<String, RuntimeJobRecord> jobs = new LinkedHashMap<>();
        try {
            this.aggregates.findAll(RuntimeJobRecord.class).forEach((job) -> jobs.put(job.name(), job));
        } catch (BadSqlGrammarException ex) {
            this.stale = this.stale || changed;
            throw new IllegalStateException(
                    "Could not read dsched_job: is it missing, or created before runtime jobs took shards and"
                            + " without the columns shards and shard_params (the statements that add them are in the"
                            + " README's Schema)?",
                    ex);
        } catch (RuntimeException ex) {
            // a change made here is still to be read
            this.stale = this.stale || changed;
            throw ex;
        }
        Map<String, RuntimeJobRecord> before = this.cache;
        this.cache = Map.copyOf(jobs);
        this.loadedAt = this.clock.millis();
        return new Read(this.cache, !this.cache.equals(before));
    }

    void invalidate() {
        this.stale = true;
    }

    /** Stops reading the jobs in the background. */
    @Override
    public void close() {
        this.refresher.shutdownNow();
    }
}
