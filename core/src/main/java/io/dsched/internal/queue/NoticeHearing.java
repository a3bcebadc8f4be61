package io.dsched.internal.queue;

/** How a node hears of attempts announced by other nodes ({@link NoticeHearer#hearing()}). */
public enum NoticeHearing {
    /**
     * It does not listen: it runs no jobs, notices are off, or its database has none (MySQL,
     * MariaDB, H2) and they do not go through Redis. It finds what other nodes submit by polling.
     */
    OFF,
    /** It listens, and has not yet checked that notices reach it. */
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
