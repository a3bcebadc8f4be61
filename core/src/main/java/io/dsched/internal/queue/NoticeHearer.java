package io.dsched.internal.queue;

import java.util.List;

/** A listener that tells how this node hears of the attempts other nodes announce. */
public interface NoticeHearer {

    /**
     * Tells how this node hears of due attempts now.
     * @return notices, polling alone, or not yet known
     */
    NoticeHearing hearing();

    /**
     * Tells how this node hears of due attempts through whichever of its listeners listens: the
     * database's, or Redis's when notices go through Redis.
     * @param hearers the node's listeners
     * @return the hearing of the first that listens, else {@link NoticeHearing#OFF}
     */
    static NoticeHearing of(List<? extends NoticeHearer> hearers) {
        return hearers.stream()
                .map(NoticeHearer::hearing)
                .filter((hearing) -> hearing != NoticeHearing.OFF)
                .findFirst()
                .orElse(NoticeHearing.OFF);
    }
}
