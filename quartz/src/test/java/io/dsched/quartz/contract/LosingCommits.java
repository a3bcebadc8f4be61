package io.dsched.quartz.contract;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.utils.ConnectionProvider;

/**
 * A Quartz connection provider over a HikariCP pool whose connections, when told to on the thread
 * that commits, commit and then throw, as when the answer to a commit is lost on its way back.
 */
public final class LosingCommits implements ConnectionProvider {

    private static final ThreadLocal<Boolean> LOSE_NEXT = new ThreadLocal<>();

    private static final AtomicInteger LOST = new AtomicInteger();

    private final HikariConfig config = new HikariConfig();

    private HikariDataSource pool;

    /** Makes the next commit on this thread lose its answer. */
    static void loseNextCommitOnThisThread() {
        LOSE_NEXT.set(Boolean.TRUE);
    }

    /** How many commits lost their answer since the last reset. */
    static int lost() {
        return LOST.get();
    }

    static void reset() {
        LOST.set(0);
    }

    public void setDriver(String driver) {
        this.config.setDriverClassName(driver);
    }

    public void setURL(String url) {
        this.config.setJdbcUrl(url);
    }

    public void setUser(String user) {
        this.config.setUsername(user);
    }

    public void setPassword(String password) {
        this.config.setPassword(password);
    }

    public void setMaxConnections(int maxConnections) {
        this.config.setMaximumPoolSize(maxConnections);
    }

    @Override
    public void initialize() {
        this.pool = new HikariDataSource(this.config);
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = this.pool.getConnection();
        return (Connection) Proxy.newProxyInstance(
                LosingCommits.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(connection, args);
                        if ("commit".equals(method.getName()) && Boolean.TRUE.equals(LOSE_NEXT.get())) {
                            LOSE_NEXT.remove();
                            LOST.incrementAndGet();
                            throw new SQLTransientConnectionException("The answer to the commit was lost");
                        }
                        return result;
                    } catch (InvocationTargetException ex) {
                        throw ex.getCause();
                    }
                });
    }

    @Override
    public void shutdown() {
        this.pool.close();
    }
}
