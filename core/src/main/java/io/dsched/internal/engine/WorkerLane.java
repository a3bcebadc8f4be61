package io.dsched.internal.engine;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One worker pool of the {@link TimedWorkerPool}: the shared pool, or that of a node group with
 * threads of its own ({@code dsched.node.group-threads}). Its count of fires at its workers is
 * guarded by the pool's lock.
 */
final class WorkerLane {

    private final int threads;

    private final ThreadPoolExecutor workers;

    /** Fires handed to the workers, running or waiting for one; guarded by the pool's lock. */
    private int atWorkers;

    WorkerLane(int threads, WorkerThreads kind, String namePrefix) {
        this.threads = threads;
        this.workers = new ThreadPoolExecutor(
                threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), kind.factory(namePrefix));
        this.workers.prestartAllCoreThreads();
    }

    ThreadPoolExecutor workers() {
        return this.workers;
    }

    boolean full() {
        return this.atWorkers >= this.threads;
    }

    void taken() {
        this.atWorkers++;
    }

    void ended() {
        this.atWorkers--;
    }
}
