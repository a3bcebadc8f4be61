package io.dsched.internal.cluster;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * The tables of dsched's own (the lowercase {@code dsched_*} ones, not Quartz's
 * {@code DSCHED_QRTZ_*}) that a database holds, by cluster, as its metadata describes them:
 * columns and index names, all in lower case whatever case the database keeps them in.
 */
final class TableLayout {

    private final Map<String, Table> tables;

    private TableLayout(Map<String, Table> tables) {
        this.tables = tables;
    }

    static TableLayout read(DataSource dataSource) throws SQLException {
        Map<String, Table> tables = new TreeMap<>();
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metadata = connection.getMetaData();
            String catalog = connection.getCatalog();
            String schema = connection.getSchema();
            try (ResultSet rows = metadata.getTables(catalog, schema, "%", null)) {
                while (rows.next()) {
                    String stored = rows.getString("TABLE_NAME");
                    String name = stored.toLowerCase(Locale.ROOT);
                    // TABLE (PostgreSQL, which lists indexes and sequences too) or BASE TABLE
                    String type = String.valueOf(rows.getString("TABLE_TYPE")).toUpperCase(Locale.ROOT);
                    if (type.endsWith("TABLE")
                            && !type.contains("SYSTEM")
                            && name.contains("dsched_")
                            && !name.contains("dsched_qrtz_")) {
                        tables.put(name, table(metadata, catalog, schema, stored));
                    }
                }
            }
        }
        return new TableLayout(tables);
    }

    private static Table table(DatabaseMetaData metadata, String catalog, String schema, String stored)
            throws SQLException {
        Set<String> columns = new TreeSet<>();
        try (ResultSet rows = metadata.getColumns(catalog, schema, stored, "%")) {
            while (rows.next()) {
                // the table name is a pattern here, in which '_' stands for any character
                if (rows.getString("TABLE_NAME").equals(stored)) {
                    columns.add(rows.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
        }
        Set<String> indexes = new TreeSet<>();
        try (ResultSet rows = metadata.getIndexInfo(catalog, schema, stored, false, false)) {
            while (rows.next()) {
                String index = rows.getString("INDEX_NAME");
                if (index != null) {
                    indexes.add(index.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new Table(columns, indexes);
    }

    /**
     * Returns the tables of a cluster, by the names they have in the default cluster
     * ({@code dsched_execution}, ...), each with its columns, how many indexes it has (its primary
     * key's too, whose name the database may choose) and the indexes dsched's scripts name
     * ({@code idx_dsched_...} in the default cluster, {@code idx_<cluster>_dsched_...} in another),
     * by their names in the default cluster.
     */
    Map<String, Shape> of(String cluster) {
        String prefix = "dsched".equals(cluster) ? "" : cluster + "_";
        Map<String, Shape> shapes = new TreeMap<>();
        this.tables.forEach((name, table) -> {
            if (name.startsWith(prefix + "dsched_")) {
                Set<String> named = new TreeSet<>();
                for (String index : table.indexes()) {
                    if (index.startsWith("idx_" + prefix + "dsched_")) {
                        named.add("idx_" + index.substring(("idx_" + prefix).length()));
                    }
                }
                shapes.put(
                        name.substring(prefix.length()),
                        new Shape(table.columns(), table.indexes().size(), named));
            }
        });
        return shapes;
    }

    /**
     * The shape of a table, the same in every cluster.
     *
     * @param columns its columns' names
     * @param indexCount how many indexes it has
     * @param namedIndexes the names of the indexes dsched's scripts name, as in the default cluster
     */
    record Shape(Set<String> columns, int indexCount, Set<String> namedIndexes) {}

    private record Table(Set<String> columns, Set<String> indexes) {}
}
