package io.dsched.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A target's cluster-wide limits in force and how much of them is used: its attempts running, those
 * due and waiting, and why they wait.
 *
 * @param name the target
 * @param maxConcurrent the most of its attempts running at once (of each key, if counted by key), or 0
 * @param ratePermits the most started per period, or 0
 * @param ratePeriod the period, or {@code null}
 * @param tokens the tokens its bucket holds now
 * @param setBy who set the limits at run time, or {@code null} while they are the declared ones
 * @param setAt when, or {@code null}
 * @param running its attempts running
 * @param waiting its attempts due and waiting
 * @param waitingForSlot of those, the ones that wait because their limit (or their key's) is full
 * @param waitingForToken of the others, the ones that wait because the bucket (or their key's) is empty
 * @param quotaPermits the most claimed in each window of the quota, or 0
 * @param quotaPeriod the quota's window, or {@code null}
 * @param quotaUsed the attempts claimed in the quota's window now
 * @param waitingForQuota of the others, the ones that wait because the quota's window is used up
 * @param keyRate the rate of each key in force, or {@code null}
 * @param adaptedMax the most running at once an adaptive limit allows now (of each key), or 0 while
 *     the limit does not adapt
 * @param keys the keys with attempts running or waiting, the busiest first, at most {@value #KEYS}
 */
public record LimitUse(
        String name,
        int maxConcurrent,
        int ratePermits,
        Duration ratePeriod,
        double tokens,
        String setBy,
        Instant setAt,
        long running,
        long waiting,
        long waitingForSlot,
        long waitingForToken,
        int quotaPermits,
        Duration quotaPeriod,
        int quotaUsed,
        long waitingForQuota,
        TargetLimits.PerPeriod keyRate,
        int adaptedMax,
        List<KeyUse> keys) {

    /** The most keys shown of a target. */
    public static final int KEYS = 20;

    /**
     * The use of one key of a target whose concurrency limit counts by key.
     * @param key the key
     * @param running its attempts running
     * @param waiting its attempts due and waiting
     */
    public record KeyUse(String key, long running, long waiting) {}

    static LimitUse of(LimitStore.LimitRow row, Instant now, Map<String, long[]> byKey, Map<String, Double> keyTokens) {
        double tokens = row.tokensAt(now);
        TargetLimits.PerPeriod keyRate = TargetLimits.PerPeriod.of(row.keyRatePermits(), row.keyRatePeriodMillis());
        long waitingForKeyToken = 0;
        int most = row.maxConcurrentInForce();
        long running = 0;
        long waiting = 0;
        long waitingForSlot = 0;
        List<KeyUse> keys = new ArrayList<>();
        for (Map.Entry<String, long[]> key : byKey.entrySet()) {
            long keyRunning = key.getValue()[0];
            long keyWaiting = key.getValue()[1];
            running += keyRunning;
            waiting += keyWaiting;
            if (key.getKey() != null) {
                keys.add(new KeyUse(key.getKey(), keyRunning, keyWaiting));
                if (most > 0 && keyRunning >= most) {
                    waitingForSlot += keyWaiting;
                } else if (keyRate != null && keyTokens.getOrDefault(key.getKey(), (double) keyRate.permits()) < 1) {
                    waitingForKeyToken += keyWaiting;
                }
            }
        }
        if (keys.isEmpty() && most > 0 && running >= most) {
            waitingForSlot = waiting;
        }
        long waitingForToken = (row.ratePermits() > 0 && tokens < 1) ? waiting - waitingForSlot : waitingForKeyToken;
        int quotaUsed = row.quotaUsedAt(now);
        long waitingForQuota = (row.quotaPermits() > 0 && quotaUsed >= row.quotaPermits())
                ? waiting - waitingForSlot - waitingForToken
                : 0;
        keys.sort(Comparator.comparingLong((KeyUse key) -> key.running() + key.waiting())
                .reversed()
                .thenComparing(KeyUse::key));
        return new LimitUse(
                row.name(),
                row.maxConcurrent(),
                row.ratePermits(),
                (row.ratePeriodMillis() > 0) ? Duration.ofMillis(row.ratePeriodMillis()) : null,
                tokens,
                row.setBy(),
                row.setAt(),
                running,
                waiting,
                waitingForSlot,
                waitingForToken,
                row.quotaPermits(),
                (row.quotaPeriodMillis() > 0) ? Duration.ofMillis(row.quotaPeriodMillis()) : null,
                quotaUsed,
                waitingForQuota,
                keyRate,
                (row.adaptive().max() > 0 && row.maxConcurrent() > 0) ? most : 0,
                List.copyOf(keys.subList(0, Math.min(KEYS, keys.size()))));
    }
}
