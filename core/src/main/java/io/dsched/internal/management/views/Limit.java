package io.dsched.internal.management.views;

import java.time.Instant;
import java.util.List;

/**
 * A one-off handler's cluster-wide limits, as in force and as declared, and their use.
 *
 * @param name the handler
 * @param maxConcurrent the most of its attempts running at once set or declared (of each key, if
 *     {@code perKey}), or 0 for none: the limit in force, unless {@code adaptedMaxConcurrent} is lower
 * @param rate the rate in force, such as {@code "50/1s"}, or {@code null} for none
 * @param declaredMaxConcurrent the most running at once this node declares, or {@code null} if it
 *     does not declare the handler
 * @param declaredRate the rate this node declares, or {@code null}
 * @param perKey whether this node counts the limit by key ({@code partitionBy})
 * @param setBy who set the limits in force at run time, or {@code null} while they are the declared
 *     ones
 * @param setAt when
 * @param running its attempts running
 * @param waiting its attempts due and waiting
 * @param waitingForSlot of those, the ones whose limit (or key's limit) is full
 * @param waitingForToken of the others, the ones that wait for the bucket to refill
 * @param tokens the tokens its bucket holds, or {@code null} without a rate
 * @param quota the quota in force, such as {@code "10000/1d"}, or {@code null} for none
 * @param declaredQuota the quota this node declares, or {@code null}
 * @param quotaUsed the attempts claimed in the quota's current window, or {@code null} without a quota
 * @param waitingForQuota of the waiting attempts neither full nor out of tokens, the ones that wait
 *     for the quota's next window
 * @param adaptedMaxConcurrent the most running at once the adaptive limit allows now, or
 *     {@code null} while it does not adapt
 * @param keyRate the rate of each key in force, such as {@code "5/1s"}, or {@code null} for none
 * @param declaredKeyRate the rate of each key this node declares, or {@code null}
 * @param keys the busiest keys, with the attempts of each running and waiting
 */
public record Limit(
        String name,
        int maxConcurrent,
        String rate,
        Integer declaredMaxConcurrent,
        String declaredRate,
        boolean perKey,
        String setBy,
        Instant setAt,
        long running,
        long waiting,
        long waitingForSlot,
        long waitingForToken,
        Double tokens,
        String quota,
        String declaredQuota,
        Integer quotaUsed,
        long waitingForQuota,
        Integer adaptedMaxConcurrent,
        String keyRate,
        String declaredKeyRate,
        List<KeyUse> keys) {

    /**
     * Returns this limit with other keys, such as the same masked.
     * @param keys the keys
     * @return the limit
     */
    public Limit withKeys(List<KeyUse> keys) {
        return new Limit(
                this.name,
                this.maxConcurrent,
                this.rate,
                this.declaredMaxConcurrent,
                this.declaredRate,
                this.perKey,
                this.setBy,
                this.setAt,
                this.running,
                this.waiting,
                this.waitingForSlot,
                this.waitingForToken,
                this.tokens,
                this.quota,
                this.declaredQuota,
                this.quotaUsed,
                this.waitingForQuota,
                this.adaptedMaxConcurrent,
                this.keyRate,
                this.declaredKeyRate,
                keys);
    }

    /**
     * The use of one key.
     *
     * @param key the key
     * @param running its attempts running
     * @param waiting its attempts due and waiting
     * @param full whether it has no slot left
     */
    public record KeyUse(String key, long running, long waiting, boolean full) {}
}
