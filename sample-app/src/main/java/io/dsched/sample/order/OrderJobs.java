package io.dsched.sample.order;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import java.math.BigDecimal;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The scheduled work of the shop. Each fire of each job, and each one-off job, runs on one instance
 * only, whichever instance claims it.
 */
@Component
public class OrderJobs {

    /** Name of the job that settles paid orders; it kept its name from when it settled pending ones. */
    public static final String SETTLE_PENDING_ORDERS = "settlePendingOrders";

    /** Name of the job that places random orders for the demo. */
    public static final String CREATE_DEMO_ORDERS = "createDemoOrders";

    /** Name of the job that logs the day's totals. */
    public static final String NIGHTLY_REPORT = "nightlyReport";

    /** Name of the job that syncs with an unreliable payment partner. */
    public static final String FLAKY_PARTNER_SYNC = "flakyPartnerSync";

    /** Name of the sharded job that reconciles the orders, a part of them on each instance. */
    public static final String RECONCILE_ORDERS = "reconcileOrders";

    /** Name of the one-off job that cancels an order nobody paid in time. */
    public static final String ORDER_TIMEOUT = "order.timeout";

    private static final Logger logger = LoggerFactory.getLogger(OrderJobs.class);

    private final OrderService orders;

    /**
     * Creates the jobs.
     * @param orders the orders they work on
     */
    public OrderJobs(OrderService orders) {
        this.orders = orders;
    }

    /**
     * Settles the orders paid and placed up to the fire's scheduled time.
     * @param ctx the fire
     */
    @DistributedScheduled(name = SETTLE_PENDING_ORDERS, cron = "*/5 * * * * *", lockAtMostFor = "1m")
    public void settlePaidOrders(JobContext ctx) {
        int settled = this.orders.settlePaid(ctx.scheduledAt());
        logger.info(
                "Settled {} paid orders on node {} (fire {}, attempt {})",
                settled,
                ctx.nodeId(),
                ctx.scheduledAt(),
                ctx.attempt());
    }

    /**
     * Reconciles the orders in four shards, each instance of the cluster taking its share of a fire's:
     * shard {@code i} reads the orders whose {@code id % 4 = i}, so that the work of a fire spreads over
     * the instances, and a shard that fails is retried alone.
     * @param ctx the shard's attempt
     */
    @DistributedScheduled(name = RECONCILE_ORDERS, cron = "${sample.reconcile.cron:0 * * * * *}", shards = "4")
    public void reconcileOrders(JobContext ctx) {
        for (OrderTotals totals : this.orders.totalsOfShard(ctx.shardIndex(), ctx.shardCount())) {
            logger.info(
                    "Reconciled shard {} of {} on node {}: {} orders {} totalling {}",
                    ctx.shardIndex(),
                    ctx.shardCount(),
                    ctx.nodeId(),
                    totals.count(),
                    totals.status(),
                    totals.amount());
        }
    }

    /**
     * Cancels an order if it is still awaiting payment when its payment timeout is up. Run again, it
     * changes nothing. No more than four run at once in the whole cluster, sparing the payment
     * provider each asks (it shows in the dashboards' limits panels and on the endpoint's
     * {@code /limits}, where an admin may change it).
     * @param timeout the order
     * @param ctx the one-off job
     */
    @JobHandler(value = ORDER_TIMEOUT, maxConcurrent = 4)
    public void cancelUnpaidOrder(OrderTimeout timeout, JobContext ctx) {
        if (this.orders.cancelIfUnpaid(timeout.orderId())) {
            logger.info("Cancelled order {}: not paid in time (node {})", timeout.orderId(), ctx.nodeId());
        }
    }

    /**
     * Places up to two orders of random amounts and pays about two in three of them, so that the
     * settlement job and the payment timeout both have work to do.
     */
    @DistributedScheduled(name = CREATE_DEMO_ORDERS, fixedRate = "${sample.demo-orders.rate:3s}")
    public void createDemoOrders() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            Order order = this.orders.place(BigDecimal.valueOf(random.nextLong(100, 100_000), 2));
            if (random.nextInt(3) > 0) {
                this.orders.pay(order.id());
            }
        }
        logger.debug("Placed {} demo orders", count);
    }

    /**
     * Logs the count and sum of the orders in each state, at 2 o'clock in Berlin.
     * @param ctx the fire
     */
    @DistributedScheduled(name = NIGHTLY_REPORT, cron = "0 0 2 * * *", zone = "Europe/Berlin")
    public void nightlyReport(JobContext ctx) {
        for (OrderTotals totals : this.orders.totals()) {
            logger.info(
                    "Nightly report for {} on node {}: {} orders {} totalling {}",
                    ctx.scheduledAt(),
                    ctx.nodeId(),
                    totals.count(),
                    totals.status(),
                    totals.amount());
        }
    }

    /**
     * Pretends to sync settlements with a payment partner that fails about one time in three, so that
     * the execution history shows failures.
     * @param ctx the fire
     * @throws PartnerUnavailableException when the partner does not answer
     */
    @DistributedScheduled(name = FLAKY_PARTNER_SYNC, fixedRate = "10s")
    public void flakyPartnerSync(JobContext ctx) {
        if (ThreadLocalRandom.current().nextInt(3) == 0) {
            throw new PartnerUnavailableException("Payment partner did not answer sync " + ctx.idempotencyKey());
        }
        logger.info("Synced settlements with the payment partner on node {}", ctx.nodeId());
    }
}
