package io.dsched.internal.store;

/**
 * The reads of due attempts in the order they are claimed, the higher priority first, then the
 * earliest due, as one bounded range of the queue index per band of priorities: above the default,
 * the default, and below it. A single read ordered by priority across bands would have to pass every
 * waiting attempt of a priority, those due later included, before it reached the next; within the
 * default band, which holds all attempts of a cluster that uses no priorities, the read is a range of
 * due times that stops at the first not yet due. Only the bands above and below the default read
 * their attempts due later, and they hold only attempts given a priority.
 */
final class PriorityBands {

    /** A band: its condition and the order that follows the queue index within it. */
    enum Band {
        ABOVE("priority > 0", "priority DESC, due_at"),
        DEFAULT("priority = 0", "due_at"),
        BELOW("priority < 0", "priority DESC, due_at");

        final String condition;

        final String order;

        Band(String condition, String order) {
            this.condition = condition;
            this.order = order;
        }
    }

    /** The order of claims across bands. */
    static final String CLAIM_ORDER = "priority DESC, due_at";

    private PriorityBands() {}

    /**
     * One read per band and condition, each of at most {@code :limit} rows, and of their union the
     * first {@code :limit} in claim order.
     * @param columns the columns read, which include {@code priority} and {@code due_at}
     * @param wheres the conditions, each read in every band, such as a waiting status and
     *     {@code due_at <= :now}
     * @return the statement
     */
    static String union(String columns, String... wheres) {
        StringBuilder sql = new StringBuilder();
        for (String where : wheres) {
            for (Band band : Band.values()) {
                member(sql, columns, where, band);
            }
        }
        return sql.append(" ORDER BY ")
                .append(CLAIM_ORDER)
                .append(" LIMIT :limit")
                .toString();
    }

    private static void member(StringBuilder sql, String columns, String where, Band band) {
        if (sql.length() > 0) {
            sql.append(" UNION ALL ");
        }
        sql.append("(SELECT ")
                .append(columns)
                .append(" FROM dsched_execution WHERE ")
                .append(where)
                .append(" AND ")
                .append(band.condition)
                .append(" ORDER BY ")
                .append(band.order)
                .append(" LIMIT :limit)");
    }
}
