package io.dsched.internal.actuate;

import io.dsched.internal.jobs.JsonProblem;
import io.dsched.internal.management.ManagementException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the {@code dsched} endpoint's parameters from the text of a request, within the bounds it
 * accepts; a parameter out of bounds is a {@link ManagementException} (400) naming it.
 */
final class EndpointParameters {

    static final int MAX_PAGE_SIZE = 200;

    static final int MAX_IDS = 500;

    static final int MAX_REASON = 1_000;

    static final int MAX_NAME = 200;

    static final int MAX_PARAMS = 64 * 1024;

    private static final Duration MAX_WINDOW = Duration.ofDays(31);

    private static final Duration MAX_TIMELINE = Duration.ofDays(1);

    private static final Instant EARLIEST = Instant.EPOCH;

    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private static final JsonMapper json = JsonMapper.builder().build();

    /** A shard's index as a key of shard parameters: 0 to 999, in plain digits. */
    private static final Pattern SHARD_INDEX = Pattern.compile("0|[1-9][0-9]{0,2}");

    private EndpointParameters() {}

    static @Nullable Object params(@Nullable String params) {
        if (params == null) {
            return null;
        }
        if (params.length() > MAX_PARAMS) {
            throw ManagementException.badInput(
                    "params", "params may have at most " + MAX_PARAMS + " characters of JSON");
        }
        try {
            return json.readTree(params);
        } catch (JacksonException ex) {
            throw ManagementException.badInput("params", "params is not valid JSON " + JsonProblem.where(ex));
        }
    }

    static @Nullable String reason(@Nullable String reason) {
        if (reason != null && reason.length() > MAX_REASON) {
            throw ManagementException.badInput("reason", "reason may have at most " + MAX_REASON + " characters");
        }
        return reason;
    }

    static @Nullable String name(String field, @Nullable String name) {
        if (name != null && (name.isBlank() || name.length() > MAX_NAME)) {
            throw ManagementException.badInput(field, field + " must have 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    /** Reads a fire's time, given in epoch milliseconds, between the epoch and the year 9999. */
    static Instant fireTime(String field, String value) {
        long millis = id(field, value);
        if (millis < EARLIEST.toEpochMilli() || millis > LATEST.toEpochMilli()) {
            throw ManagementException.badInput(
                    field, field + " must be a time in epoch milliseconds, from 0 to " + LATEST.toEpochMilli());
        }
        return Instant.ofEpochMilli(millis);
    }

    static long id(String field, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException ex) {
            throw ManagementException.badInput(field, field + " must be a number, was '" + shorten(value) + "'");
        }
    }

    static @Nullable Integer count(String field, @Nullable String value) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(value.strip());
        } catch (NumberFormatException ex) {
            throw ManagementException.badInput(field, field + " must be a whole number, was '" + shorten(value) + "'");
        }
    }

    /**
     * Reads shard parameters: a JSON object of text values by shard index, such as
     * {@code {"0": "Beijing", "1": "Shanghai"}}; none if not given.
     */
    static Map<Integer, String> shardParams(@Nullable String value) {
        if (value == null || value.isBlank()) {
            return Map.of();
        }
        if (value.length() > MAX_PARAMS) {
            throw ManagementException.badInput(
                    "shardParams", "shardParams may have at most " + MAX_PARAMS + " characters of JSON");
        }
        JsonNode node;
        try {
            node = json.readTree(value);
        } catch (JacksonException ex) {
            throw ManagementException.badInput("shardParams", "shardParams is not JSON");
        }
        if (!node.isObject()) {
            throw ManagementException.badInput(
                    "shardParams",
                    "shardParams must be a JSON object of text by shard index, such as {\"0\": \"Beijing\"}");
        }
        Map<Integer, String> params = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!SHARD_INDEX.matcher(entry.getKey()).matches()) {
                throw ManagementException.badInput(
                        "shardParams", "'" + shorten(entry.getKey()) + "' is not a shard's index");
            }
            int index = Integer.parseInt(entry.getKey());
            if (!entry.getValue().isString()
                    || params.put(index, entry.getValue().asString()) != null) {
                throw ManagementException.badInput(
                        "shardParams", "shard " + index + " must have one parameter, as text");
            }
        }
        return params;
    }

    static List<Long> ids(List<String> values) {
        if (values.size() > MAX_IDS) {
            throw ManagementException.badInput("ids", "At most " + MAX_IDS + " ids at once");
        }
        return values.stream().map((value) -> id("ids", value)).toList();
    }

    static Pageable pageable(@Nullable Integer page, @Nullable Integer size) {
        int number = (page != null) ? page : 0;
        int count = (size != null) ? size : 20;
        if (number < 0) {
            throw ManagementException.badInput("page", "page must be 0 or more");
        }
        if (count < 1 || count > MAX_PAGE_SIZE) {
            throw ManagementException.badInput("size", "size must be 1 to " + MAX_PAGE_SIZE);
        }
        return PageRequest.of(number, count);
    }

    static Duration window(@Nullable String value, Duration fallback) {
        if (value == null) {
            return fallback;
        }
        Duration window;
        try {
            window = DurationStyle.detectAndParse(shorten(value));
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput("window", "window must be a duration such as 1h or PT1H");
        }
        if (window.isNegative() || window.isZero() || window.compareTo(MAX_WINDOW) > 0) {
            throw ManagementException.badInput("window", "window must be longer than zero and at most 31d");
        }
        return window;
    }

    static Duration timelineWindow(@Nullable String value) {
        Duration window = window(value, Duration.ofHours(1));
        if (window.compareTo(MAX_TIMELINE) > 0) {
            throw ManagementException.badInput("window", "The timeline covers at most 24h");
        }
        return window;
    }

    static @Nullable Instant instant(String field, @Nullable String value) {
        if (value == null) {
            return null;
        }
        Instant instant;
        try {
            instant = Instant.parse(shorten(value));
        } catch (DateTimeParseException ex) {
            throw ManagementException.badInput(
                    field, field + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z");
        }
        // every database stores these years; a client's year 1000000000 is refused here, not by the driver
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw ManagementException.badInput(field, field + " must lie between the years 1970 and 9999");
        }
        return instant;
    }

    static <E extends Enum<E>> @Nullable E parse(String field, @Nullable String value, Class<E> type) {
        if (value == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(
                    field,
                    "Unknown " + field + " '" + shorten(value) + "'; one of " + List.of(type.getEnumConstants()));
        }
    }

    static ManagementException unknownPath(String segment) {
        return ManagementException.notFound("Nothing at '" + shorten(segment) + "' in the dsched endpoint");
    }

    private static String shorten(String value) {
        return (value.length() <= 60) ? value : value.substring(0, 60) + "…";
    }
}
