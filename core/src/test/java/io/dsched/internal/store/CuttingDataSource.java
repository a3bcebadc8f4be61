package io.dsched.internal.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A DataSource whose next statements fail as a cut connection's do, as PostgreSQL cuts every
 * session when it is restarted: the statement fails with 57P01, and the rollback after it with
 * whatever the driver says of a closed connection, here with no SQL state at all.
 */
public final class CuttingDataSource {

    private static final Set<String> STATEMENTS = Set.of("prepareStatement", "createStatement", "prepareCall");

    private final AtomicInteger cutsLeft = new AtomicInteger();

    private final DataSource dataSource;

    /**
     * Wraps a DataSource.
     * @param target the database
     */
    public CuttingDataSource(DataSource target) {
        this.dataSource = proxy(DataSource.class, (proxy, method, args) -> {
            Object result = invoke(target, method, args);
            return method.getName().equals("getConnection") ? cutting((Connection) result) : result;
        });
    }

    /** The DataSource whose statements are cut. */
    public DataSource dataSource() {
        return this.dataSource;
    }

    /**
     * Cuts the next statements.
     * @param statements how many fail before the database answers again
     */
    public void cutNext(int statements) {
        this.cutsLeft.set(statements);
    }

    /** How many of the statements to cut have not been met. */
    public int cutsLeft() {
        return this.cutsLeft.get();
    }

    private Connection cutting(Connection connection) {
        boolean[] cut = {false};
        return proxy(Connection.class, (inner, call, values) -> {
            if (STATEMENTS.contains(call.getName())
                    && this.cutsLeft.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
                cut[0] = true;
                throw new SQLException("FATAL: terminating connection due to administrator command", "57P01");
            }
            if (call.getName().equals("rollback") && cut[0]) {
                throw new SQLException("Connection is closed");
            }
            return invoke(connection, call, values);
        });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException ex) {
            throw ex.getCause();
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
