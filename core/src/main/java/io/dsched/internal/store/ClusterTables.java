package io.dsched.internal.store;

import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.ResultSetExtractor;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/**
 * The names of one cluster's tables. Every table of dsched's own (all but Quartz's) belongs to one
 * cluster: the cluster named {@value #DEFAULT_CLUSTER}, the default, keeps the names the schema
 * scripts give, {@code dsched_execution} and so on; any other cluster has its own set, each name
 * led by the cluster's, {@code billing_dsched_execution}. So two clusters on one database share no
 * row by construction, and no query needs a cluster column to keep them apart. Quartz's tables
 * are shared, kept apart by their scheduler name column, as Quartz does.
 *
 * <p>dsched's SQL is written with the default names; {@link #sql(String)} turns it into this
 * cluster's, by leading every lower-case {@code dsched_} with the cluster's name (table, index and
 * constraint names alike; Quartz's {@code DSCHED_QRTZ_} is upper case). The templates of
 * {@link #named(DataSource)} do so for every statement they run, and so does the plain template
 * under them for the statements with no parameters that Spring Data JDBC sends there (counts,
 * existence checks, deletes of all rows); code of dsched's own that uses a plain template names
 * its tables through {@link #sql(String)}.
 */
public final class ClusterTables {

    /** The name of the cluster whose tables keep the schema scripts' names. */
    public static final String DEFAULT_CLUSTER = "dsched";

    /** The default cluster's tables. */
    public static final ClusterTables DEFAULT = new ClusterTables(DEFAULT_CLUSTER);

    /**
     * What a cluster's name may be: it leads its table names, which the databases limit to 63
     * characters (PostgreSQL) or 64 (MySQL), and which must not depend on case.
     */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,19}");

    private static final String MARK = "dsched_";

    private final String clusterName;

    private final String prefix;

    private ClusterTables(String clusterName) {
        this.clusterName = clusterName;
        this.prefix = DEFAULT_CLUSTER.equals(clusterName) ? "" : clusterName + "_";
    }

    /**
     * Returns the tables of a cluster.
     * @param clusterName the cluster's name, {@code dsched.cluster.name}
     * @return its tables
     * @throws IllegalArgumentException if the name does not match {@link #NAME}
     */
    public static ClusterTables of(String clusterName) {
        if (DEFAULT_CLUSTER.equals(clusterName)) {
            return DEFAULT;
        }
        if (clusterName == null || !NAME.matcher(clusterName).matches()) {
            throw new IllegalArgumentException("dsched.cluster.name '" + clusterName + "' is not valid: it leads the "
                    + "names of the cluster's tables, so it must match " + NAME.pattern()
                    + " (a lower-case letter, then up to 19 lower-case letters, digits or underscores)");
        }
        return new ClusterTables(clusterName);
    }

    /**
     * Returns the cluster's name.
     * @return the name
     */
    public String clusterName() {
        return this.clusterName;
    }

    /**
     * Returns this cluster's name of one of dsched's tables.
     * @param defaultName the table's name in the schema scripts, such as {@code dsched_execution}
     * @return the cluster's name of it
     */
    public String table(String defaultName) {
        return sql(defaultName);
    }

    /**
     * Returns SQL written with the default names, or a schema script, with this cluster's names.
     * @param sql the statement or script
     * @return the same with this cluster's names
     */
    public String sql(String sql) {
        // a scan of a few hundred characters: not worth a cache, which statements built at run
        // time would grow without bound
        return this.prefix.isEmpty() ? sql : sql.replace(MARK, this.prefix + MARK);
    }

    /**
     * Returns a template whose every statement names this cluster's tables.
     * @param dataSource the database
     * @return a new template
     */
    public NamedParameterJdbcTemplate named(DataSource dataSource) {
        return named(this.prefix.isEmpty() ? new JdbcTemplate(dataSource) : new ClusterJdbcTemplate(dataSource, this));
    }

    /**
     * Returns a template whose every statement names this cluster's tables.
     * @param jdbc the plain template to run statements on
     * @return a new template
     */
    public NamedParameterJdbcTemplate named(JdbcTemplate jdbc) {
        return this.prefix.isEmpty() ? new NamedParameterJdbcTemplate(jdbc) : new ClusterTemplate(jdbc, this);
    }

    @Override
    public String toString() {
        return "tables of cluster " + this.clusterName;
    }

    /**
     * The statements without parameters that Spring Data JDBC runs on the plain template: each
     * method here is one that the template's other methods of such statements end in, so that no
     * statement is renamed twice.
     */
    private static final class ClusterJdbcTemplate extends JdbcTemplate {

        private final ClusterTables tables;

        ClusterJdbcTemplate(DataSource dataSource, ClusterTables tables) {
            super(dataSource);
            this.tables = tables;
        }

        @Override
        public <T> T query(String sql, ResultSetExtractor<T> extractor) throws DataAccessException {
            return super.query(this.tables.sql(sql), extractor);
        }

        @Override
        public int update(String sql) throws DataAccessException {
            return super.update(this.tables.sql(sql));
        }

        @Override
        public void execute(String sql) throws DataAccessException {
            super.execute(this.tables.sql(sql));
        }
    }

    private static final class ClusterTemplate extends NamedParameterJdbcTemplate {

        private final ClusterTables tables;

        ClusterTemplate(JdbcTemplate jdbc, ClusterTables tables) {
            super(jdbc);
            this.tables = tables;
        }

        @Override
        protected ParsedSql getParsedSql(String sql) {
            return super.getParsedSql(this.tables.sql(sql));
        }
    }
}
