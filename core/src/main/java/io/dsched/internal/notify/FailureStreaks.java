package io.dsched.internal.notify;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts, per job, the fires that failed in a row on this node. A fire counts once however many
 * of its attempts fail; a success of the job ends the streak.
 *
 * <p>A streak is seen per node: each node counts the fires it ran, so on a cluster of three nodes
 * a streak of 3 may stand for up to 9 failed fires, and a success on another node does not end
 * this node's streak. Streaks are kept in memory and start again from zero when the node restarts.
 */
public final class FailureStreaks {

    /** How many fires of a streak are remembered, so that a further failed attempt of one is not counted again. */
    private static final int REMEMBERED_FIRES = 100;

    private final Map<String, Streak> streaks = new ConcurrentHashMap<>();

    /**
     * Records a failed attempt.
     * @param job the job
     * @param fire the idempotency key of the attempt's fire
     * @return the job's streak after it
     */
    Streak failed(String job, String fire) {
        return this.streaks.compute(job, (name, streak) -> {
            if (streak == null) {
                streak = new Streak(0, false, new LinkedHashSet<>());
            }
            if (streak.fires().contains(fire)) {
                return new Streak(streak.length(), false, streak.fires());
            }
            streak.fires().add(fire);
            if (streak.fires().size() > REMEMBERED_FIRES) {
                streak.fires().remove(streak.fires().iterator().next());
            }
            return new Streak(streak.length() + 1, true, streak.fires());
        });
    }

    /**
     * Records a successful attempt, which ends the job's streak.
     * @param job the job
     */
    public void succeeded(String job) {
        this.streaks.remove(job);
    }

    /**
     * Returns how many fires of a job failed in a row on this node.
     * @param job the job
     * @return the length of its streak, 0 when its last fire succeeded
     */
    public int length(String job) {
        Streak streak = this.streaks.get(job);
        return (streak != null) ? streak.length() : 0;
    }
}
