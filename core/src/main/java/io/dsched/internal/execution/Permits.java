package io.dsched.internal.execution;

import java.util.List;

/** The permits of an admitted attempt, released together, last first. */
final class Permits {

    private final List<Permit> permits;

    Permits(List<Permit> permits) {
        this.permits = permits;
    }

    /**
     * Returns the guard's permit, which the write of a success can release.
     * @return the permit, or {@code null} if the job's lock was not taken
     */
    GuardAdmission.GuardPermit guard() {
        for (Permit permit : this.permits) {
            if (permit instanceof GuardAdmission.GuardPermit guard) {
                return guard;
            }
        }
        return null;
    }

    void release() {
        releaseAll(this.permits);
    }

    static void releaseAll(List<Permit> permits) {
        for (int i = permits.size() - 1; i >= 0; i--) {
            permits.get(i).release();
        }
    }
}
