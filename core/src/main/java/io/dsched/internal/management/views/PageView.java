package io.dsched.internal.management.views;

import java.util.List;

/**
 * A page of a list.
 *
 * @param content the items
 * @param page the page number, from 0
 * @param size the page size
 * @param total how many items there are in all, or at least, when {@code totalExact} is false:
 *     a list that may hold millions of rows is counted only so far beyond the page
 * @param totalExact whether {@code total} is the exact count
 * @param <T> the item type
 */
public record PageView<T>(List<T> content, int page, int size, long total, boolean totalExact) {

    /**
     * Converts a Spring Data page.
     * @param page the page
     * @param <T> the item type
     * @return the view
     */
    public static <T> PageView<T> of(org.springframework.data.domain.Page<T> page) {
        return new PageView<>(page.getContent(), page.getNumber(), page.getSize(), page.getTotalElements(), true);
    }
}
