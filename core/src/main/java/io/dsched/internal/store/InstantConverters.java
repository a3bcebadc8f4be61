package io.dsched.internal.store;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.data.convert.ReadingConverter;
import org.springframework.data.convert.WritingConverter;
import org.springframework.data.jdbc.core.mapping.JdbcValue;

/**
 * Writes and reads dsched's timestamp columns as instants, whatever the default zone of the JVM:
 * PostgreSQL and H2 keep {@code TIMESTAMP WITH TIME ZONE}; MySQL and MariaDB keep UTC in
 * {@code DATETIME(3)}.
 */
final class InstantConverters {

    private InstantConverters() {}

    /** The converters of a database whose timestamp columns hold instants. */
    static List<Object> forInstants(SqlDialect dialect) {
        return List.of(new Writer(dialect), new AbsoluteTimestampReader(), new OffsetDateTimeReader());
    }

    /** The converters of a database whose timestamp columns hold UTC wall-clock times. */
    static List<Object> forUtcWallClock(SqlDialect dialect) {
        return List.of(new Writer(dialect), new UtcTimestampReader(), new UtcLocalDateTimeReader());
    }

    @WritingConverter
    record Writer(SqlDialect dialect) implements Converter<Instant, JdbcValue> {

        @Override
        public JdbcValue convert(Instant source) {
            return JdbcValue.of(this.dialect.bindable(source), this.dialect.timestampType());
        }
    }

    @ReadingConverter
    static final class AbsoluteTimestampReader implements Converter<Timestamp, Instant> {

        @Override
        public Instant convert(Timestamp source) {
            return source.toInstant();
        }
    }

    @ReadingConverter
    static final class OffsetDateTimeReader implements Converter<OffsetDateTime, Instant> {

        @Override
        public Instant convert(OffsetDateTime source) {
            return source.toInstant();
        }
    }

    @ReadingConverter
    static final class UtcTimestampReader implements Converter<Timestamp, Instant> {

        @Override
        public Instant convert(Timestamp source) {
            return source.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
    }

    @ReadingConverter
    static final class UtcLocalDateTimeReader implements Converter<LocalDateTime, Instant> {

        @Override
        public Instant convert(LocalDateTime source) {
            return source.toInstant(ZoneOffset.UTC);
        }
    }
}
