package io.dsched.internal.audit;

import static io.dsched.internal.text.BoundedText.cut;

import io.dsched.internal.store.Pages;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.util.StringUtils;

/**
 * Writes and reads {@code dsched_audit}. Entries are only ever added and never changed; the
 * housekeeping job deletes those older than {@code dsched.management.audit-retention}.
 */
public class AuditLog {

    private static final int MAX_VALUE = 8_000;

    // a reason is what the actor gave, checked against the endpoint's limit before a granted write
    private static final int MAX_REASON = 1_000;

    // the rest is short: names, ids, statuses and this node's own messages
    private static final int MAX_TEXT = 200;

    private final JdbcAggregateOperations aggregates;

    /**
     * Creates the log.
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     */
    public AuditLog(JdbcAggregateOperations aggregates) {
        this.aggregates = aggregates;
    }

    /**
     * Adds an entry, cutting its texts to the columns' sizes.
     * @param entry the entry, without an id
     * @return the saved entry
     */
    public AuditEntry record(AuditEntry entry) {
        return this.aggregates.insert(new AuditEntry(
                null,
                entry.actedAt(),
                cut(entry.actor(), 200),
                cut(entry.action(), 60),
                cut(entry.target(), MAX_TEXT),
                cut(entry.beforeValue(), MAX_VALUE),
                cut(entry.afterValue(), MAX_VALUE),
                cut(entry.reason(), MAX_REASON),
                cut(entry.remoteAddress(), 100),
                entry.result(),
                cut(entry.detail(), MAX_TEXT),
                cut(entry.nodeId(), 200)));
    }

    /**
     * Lists entries, newest first.
     * @param actor only this actor's entries, or {@code null} for everyone's
     * @param target only entries about this target, or {@code null} for all
     * @param page which page
     * @return the page of entries
     */
    public Page<AuditEntry> list(String actor, String target, Pageable page) {
        Criteria criteria = Criteria.empty();
        if (StringUtils.hasText(actor)) {
            criteria = criteria.and("actor").is(actor);
        }
        if (StringUtils.hasText(target)) {
            criteria = criteria.and("target").is(target);
        }
        return Pages.read(this.aggregates, AuditEntry.class, criteria, Sort.by(Sort.Order.desc("id")), page);
    }
}
