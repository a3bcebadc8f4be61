package io.dsched.internal.queue;

/** How a node hears of attempts announced by other nodes ({@link NoticeListener#hearing()}). */
public enum NoticeHearing {
    /** It has not yet checked that notices reach it, or it does not listen at all. */
    NOT_YET,
    /** It listens, and its probes come back. */
    NOTICES,
    /** Its notices went astray, or its connection failed: it polls alone for now. */
    POLLING
}
