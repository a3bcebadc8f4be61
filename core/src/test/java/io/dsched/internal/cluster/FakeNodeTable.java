package io.dsched.internal.cluster;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;

/**
 * {@code dsched_node} where the database is not the point: the database's clock runs a set
 * offset behind the node's, and each read of it takes a round trip the test chooses. Nothing
 * connects to the data source.
 */
final class FakeNodeTable extends NodeTable {

    private final SettableClock nodeClock;

    private volatile Duration nodeAhead = Duration.ZERO;

    private final Deque<Duration[]> roundTrips = new ArrayDeque<>();

    final List<Duration> recordedOffsets = new ArrayList<>();

    int reads;

    FakeNodeTable(SettableClock nodeClock) {
        super(new JdbcDataSource(), DatabasePlatform.H2, ClusterTables.DEFAULT);
        this.nodeClock = nodeClock;
    }

    /** The node's clock runs this far ahead of the database's (negative when behind). */
    void nodeAhead(Duration offset) {
        this.nodeAhead = offset;
    }

    /** The next reads of the database's time take these round trips, half each way; then none. */
    void roundTrips(Duration... durations) {
        for (Duration duration : durations) {
            read(duration.dividedBy(2), duration.dividedBy(2));
        }
    }

    /** The next read reaches the database after {@code there} and its answer the node after {@code back}. */
    void read(Duration there, Duration back) {
        this.roundTrips.add(new Duration[] {there, back});
    }

    @Override
    public Instant databaseNow() {
        this.reads++;
        Duration[] trip =
                this.roundTrips.isEmpty() ? new Duration[] {Duration.ZERO, Duration.ZERO} : this.roundTrips.poll();
        this.nodeClock.advance(trip[0]);
        Instant now = this.nodeClock.instant().minus(this.nodeAhead);
        this.nodeClock.advance(trip[1]);
        return now;
    }

    @Override
    public void recordClockOffset(String nodeId, Duration offset) {
        this.recordedOffsets.add(offset);
    }
}
