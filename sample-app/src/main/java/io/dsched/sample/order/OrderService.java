package io.dsched.sample.order;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Service;

/**
 * Places, lists and settles the orders in {@code sample_order}, whose timestamps are UTC without a zone.
 */
@Service
public class OrderService {

    private static final BigDecimal MAX_AMOUNT = new BigDecimal("9999999999.99");

    private final JdbcClient jdbc;

    private final Clock clock;

    /**
     * Creates the service.
     * @param jdbc the application's database
     */
    public OrderService(JdbcClient jdbc) {
        this.jdbc = jdbc;
        this.clock = Clock.systemUTC();
    }

    /**
     * Places a pending order.
     * @param amount amount of the order, positive, rounded to cents
     * @return the new order
     * @throws IllegalArgumentException if the amount is missing, not positive or too large
     */
    public Order place(BigDecimal amount) {
        if (amount == null || amount.signum() <= 0 || amount.compareTo(MAX_AMOUNT) > 0) {
            throw new IllegalArgumentException("amount must be positive and at most " + MAX_AMOUNT + ", was " + amount);
        }
        BigDecimal cents = amount.setScale(2, RoundingMode.HALF_UP);
        Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
        KeyHolder keys = new GeneratedKeyHolder();
        this.jdbc
                .sql("INSERT INTO sample_order (status, amount, created_at) VALUES (:status, :amount, :createdAt)")
                .param("status", OrderStatus.PENDING.name())
                .param("amount", cents)
                .param("createdAt", utc(now))
                .update(keys, "id");
        return new Order(keys.getKey().longValue(), OrderStatus.PENDING, cents, now, null);
    }

    /**
     * Lists the newest orders.
     * @param limit how many at most
     * @return the orders, newest first
     */
    public List<Order> newest(int limit) {
        return this.jdbc
                .sql("""
                        SELECT id, status, amount, created_at, settled_at
                          FROM sample_order
                         ORDER BY id DESC
                         LIMIT :limit
                        """)
                .param("limit", limit)
                .query(OrderService::order)
                .list();
    }

    /**
     * Settles the orders still pending that were placed up to a cutoff; an order is settled at most once, so
     * running it again is harmless.
     * @param cutoff orders placed later stay pending
     * @return how many orders it settled
     */
    public int settlePending(Instant cutoff) {
        return this.jdbc
                .sql("""
                        UPDATE sample_order SET status = :settled, settled_at = :now
                         WHERE status = :pending AND created_at <= :cutoff
                        """)
                .param("settled", OrderStatus.SETTLED.name())
                .param("now", utc(this.clock.instant()))
                .param("pending", OrderStatus.PENDING.name())
                .param("cutoff", utc(cutoff))
                .update();
    }

    /**
     * Counts and sums the orders of each state.
     * @return one entry per state that has orders
     */
    public List<OrderTotals> totals() {
        return this.jdbc
                .sql("""
                        SELECT status, COUNT(*) AS n, COALESCE(SUM(amount), 0) AS total
                          FROM sample_order
                         GROUP BY status
                        """)
                .query((rs, row) -> new OrderTotals(
                        OrderStatus.valueOf(rs.getString("status")), rs.getLong("n"), rs.getBigDecimal("total")))
                .list();
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
