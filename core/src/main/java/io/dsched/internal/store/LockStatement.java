package io.dsched.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/** One of ShedLock's statements, its named parameters resolved once. */
final class LockStatement {

    private final ParsedSql parsed;

    private final String sql;

    LockStatement(String namedSql) {
        this.parsed = NamedParameterUtils.parseSqlStatement(namedSql);
        this.sql = NamedParameterUtils.substituteNamedParameters(this.parsed, null);
    }

    int execute(Connection connection, Map<String, Object> params) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(this.sql)) {
            bind(statement, params);
            return statement.executeUpdate();
        }
    }

    void executeBatch(Connection connection, List<Map<String, Object>> rows) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(this.sql)) {
            for (Map<String, Object> params : rows) {
                bind(statement, params);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    private void bind(PreparedStatement statement, Map<String, Object> params) throws SQLException {
        Object[] values = NamedParameterUtils.buildValueArray(this.parsed, new MapSqlParameterSource(params), null);
        for (int i = 0; i < values.length; i++) {
            StatementCreatorUtils.setParameterValue(statement, i + 1, SqlTypeValue.TYPE_UNKNOWN, values[i]);
        }
    }
}
