package io.dsched.store;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.core.convert.converter.Converter;
import org.springframework.data.convert.ReadingConverter;
import org.springframework.data.convert.WritingConverter;

/**
 * dsched's timestamp columns hold UTC without a zone, so that every database (MariaDB's DATETIME
 * included) and every node, whatever its default zone, read and write the same instant.
 */
final class UtcTimestampConverters {

    private UtcTimestampConverters() {}

    static List<Converter<?, ?>> all() {
        return List.of(new InstantWriter(), new TimestampReader(), new LocalDateTimeReader());
    }

    @WritingConverter
    static final class InstantWriter implements Converter<Instant, LocalDateTime> {

        @Override
        public LocalDateTime convert(Instant source) {
            return LocalDateTime.ofInstant(source, ZoneOffset.UTC);
        }
    }

    @ReadingConverter
    static final class TimestampReader implements Converter<Timestamp, Instant> {

        @Override
        public Instant convert(Timestamp source) {
            return source.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
    }

    @ReadingConverter
    static final class LocalDateTimeReader implements Converter<LocalDateTime, Instant> {

        @Override
        public Instant convert(LocalDateTime source) {
            return source.toInstant(ZoneOffset.UTC);
        }
    }
}
