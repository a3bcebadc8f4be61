package io.dsched.sample.order;

import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places, pays, cancels, lists and settles the orders in {@code sample_order}, whose timestamps are UTC
 * without a zone. Every change of state is a conditional update, so repeating one is harmless.
 */
@Service
public class OrderService {

    private static final String SELECT = "SELECT id, status, amount, created_at, settled_at FROM sample_order";

    private final JdbcClient jdbc;

    private final JobScheduler jobs;

    private final Duration paymentTimeout;

    private final Clock clock;

    /**
     * Creates the service.
     * @param jdbc the application's database
     * @param jobs schedules the payment timeout of each order
     * @param paymentTimeout how long an order may await payment before it is cancelled
     */
    public OrderService(
            JdbcClient jdbc, JobScheduler jobs, @Value("${sample.payment-timeout:2m}") Duration paymentTimeout) {
        this.jdbc = jdbc;
        this.jobs = jobs;
        this.paymentTimeout = paymentTimeout;
        this.clock = Clock.systemUTC();
    }

    /**
     * Places an order awaiting payment, and schedules its cancellation should it not be paid within the
     * payment timeout; both are written in one transaction.
     * @param amount amount of the order, by the rules of {@link OrderAmount}
     * @return the new order
     * @throws IllegalArgumentException if the amount breaks one of those rules
     */
    @Transactional
    public Order place(BigDecimal amount) {
        BigDecimal cents = OrderAmount.cents(amount);
        Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
        KeyHolder keys = new GeneratedKeyHolder();
        this.jdbc
                .sql("INSERT INTO sample_order (status, amount, created_at) VALUES (:status, :amount, :createdAt)")
                .param("status", OrderStatus.PENDING.name())
                .param("amount", cents)
                .param("createdAt", utc(now))
                .update(keys, "id");
        long id = keys.getKey().longValue();
        this.jobs.submit(OneOff.of(OrderJobs.ORDER_TIMEOUT, new OrderTimeout(id))
                .after(this.paymentTimeout)
                .withKey("order-" + id));
        return new Order(id, OrderStatus.PENDING, cents, now, null);
    }

    /**
     * Records the payment of an order; paying an order again changes nothing.
     * @param id the order
     * @return the order as it is now
     * @throws OrderNotFoundException if there is no such order
     * @throws OrderCancelledException if the order was cancelled for want of payment
     */
    public Order pay(long id) {
        move(id, OrderStatus.PENDING, OrderStatus.PAID);
        Order order = find(id).orElseThrow(() -> new OrderNotFoundException(id));
        if (order.status() == OrderStatus.CANCELLED) {
            throw new OrderCancelledException(id);
        }
        return order;
    }

    /**
     * Cancels an order if it is still awaiting payment.
     * @param id the order
     * @return {@code true} if it was cancelled now, {@code false} if it was paid, cancelled or is unknown
     */
    public boolean cancelIfUnpaid(long id) {
        return move(id, OrderStatus.PENDING, OrderStatus.CANCELLED);
    }

    /**
     * Finds an order.
     * @param id the order
     * @return the order, or empty if there is none
     */
    public Optional<Order> find(long id) {
        return this.jdbc
                .sql(SELECT + " WHERE id = :id")
                .param("id", id)
                .query(OrderService::order)
                .optional();
    }

    /**
     * Lists the newest orders.
     * @param limit how many at most
     * @return the orders, newest first
     */
    public List<Order> newest(int limit) {
        return this.jdbc
                .sql(SELECT + " ORDER BY id DESC LIMIT :limit")
                .param("limit", limit)
                .query(OrderService::order)
                .list();
    }

    /**
     * Settles the paid orders that were placed up to a cutoff; an order is settled at most once, so
     * running it again is harmless.
     * @param cutoff orders placed later wait for the next run
     * @return how many orders it settled
     */
    public int settlePaid(Instant cutoff) {
        return this.jdbc
                .sql("""
                        UPDATE sample_order SET status = :settled, settled_at = :now
                         WHERE status = :paid AND created_at <= :cutoff
                        """)
                .param("settled", OrderStatus.SETTLED.name())
                .param("now", utc(this.clock.instant()))
                .param("paid", OrderStatus.PAID.name())
                .param("cutoff", utc(cutoff))
                .update();
    }

    /**
     * Counts and sums the orders of each state in one shard of them: those whose id, divided by the
     * number of shards, leaves the shard's index.
     * @param shardIndex the shard, from 0
     * @param shardCount the number of shards
     * @return one entry per state that has orders in the shard
     */
    public List<OrderTotals> totalsOfShard(int shardIndex, int shardCount) {
        return this.jdbc
                .sql("""
                        SELECT status, COUNT(*) AS n, COALESCE(SUM(amount), 0) AS total
                          FROM sample_order
                         WHERE MOD(id, :count) = :index
                         GROUP BY status
                        """)
                .param("count", shardCount)
                .param("index", shardIndex)
                .query((rs, row) -> new OrderTotals(
                        OrderStatus.valueOf(rs.getString("status")), rs.getLong("n"), rs.getBigDecimal("total")))
                .list();
    }

    /**
     * Counts and sums the orders of each state.
     * @return one entry per state that has orders
     */
    public List<OrderTotals> totals() {
        // the one shard of one: every order
        return totalsOfShard(0, 1);
    }

    private boolean move(long id, OrderStatus from, OrderStatus to) {
        return this.jdbc
                        .sql("UPDATE sample_order SET status = :to WHERE id = :id AND status = :from")
                        .param("to", to.name())
                        .param("id", id)
                        .param("from", from.name())
                        .update()
                == 1;
    }

    private static Order order(ResultSet rs, int row) throws SQLException {
        return new Order(
                rs.getLong("id"),
                OrderStatus.valueOf(rs.getString("status")),
                rs.getBigDecimal("amount"),
                instant(rs.getObject("created_at", LocalDateTime.class)),
                instant(rs.getObject("settled_at", LocalDateTime.class)));
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(LocalDateTime utc) {
        return (utc != null) ? utc.toInstant(ZoneOffset.UTC) : null;
    }
}
