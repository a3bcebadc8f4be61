package io.dsched.internal.queue;

import java.util.List;

/** Announces due attempts to every node, in one go: PostgreSQL's NOTIFY, or Redis's pub/sub. */
@FunctionalInterface
interface Announcer {

    /**
     * Announces.
     * @param payloads one per job, written by {@link NoticePayload#payload}
     * @throws Exception if it cannot
     */
    void announce(List<String> payloads) throws Exception;
}
