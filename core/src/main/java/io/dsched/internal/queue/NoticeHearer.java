package io.dsched.internal.queue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

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
     * @param hearers the node's listeners, looked up once, when first asked
     * @return the name of the hearing of the first that listens, else of {@link NoticeHearing#OFF}
     */
    static Supplier<String> named(Supplier<List<? extends NoticeHearer>> hearers) {
        return () -> hearers.get().stream()
                .map(NoticeHearer::hearing)
                .filter((hearing) -> hearing != NoticeHearing.OFF)
                .findFirst()
                .orElse(NoticeHearing.OFF)
                .name()
                .toLowerCase(Locale.ROOT);
    }

    /**
     * Names every hearing as {@link #named} does.
     * @return the names
     */
    static List<String> names() {
        return Arrays.stream(NoticeHearing.values())
                .map((hearing) -> hearing.name().toLowerCase(Locale.ROOT))
                .toList();
    }
}
