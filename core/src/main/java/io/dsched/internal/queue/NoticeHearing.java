package io.dsched.internal.queue;

/** How a node hears of attempts announced by other nodes ({@link NoticeListener#hearing()}). */
public enum NoticeHearing {
    /** It has not yet checked that notices reach it, or it does not listen at all. */
    NOT_YET,
    /** It listens, and its probes come back. */
    NOTICES,
    /**
     * Its probes went astray (behind a pooler in transaction mode, say): it polls alone, and
     * checks again after a while.
     */
    ASTRAY,
    /** Its connection failed: it polls alone for now, and listens again after a while. */
    POLLING
}
