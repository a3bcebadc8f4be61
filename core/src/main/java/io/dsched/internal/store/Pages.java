package io.dsched.internal.store;

import java.util.List;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;

/** Reads one page of one of dsched's tables, with the total count that a page reports. */
public final class Pages {

    private Pages() {}

    /**
     * Reads a page.
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     * @param type the table's record type
     * @param criteria which rows
     * @param sort their order
     * @param page which page
     * @param <T> the record type
     * @return the page
     */
    public static <T> Page<T> read(
            JdbcAggregateOperations aggregates, Class<T> type, Criteria criteria, Sort sort, Pageable page) {
        Query query = Query.query(criteria);
        long total = aggregates.count(query, type);
        List<T> content =
                aggregates.findAll(query.sort(sort).limit(page.getPageSize()).offset(page.getOffset()), type);
        return new PageImpl<>(content, page, total);
    }
}
