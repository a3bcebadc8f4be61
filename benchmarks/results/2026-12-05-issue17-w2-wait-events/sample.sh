#!/usr/bin/env bash
# Samples the busy client sessions of database "test" every 50 ms until killed, one line per
# session: epoch ms|pid|state|wait type|wait event|transaction age ms|statement (100 chars)
exec psql -h localhost -U postgres -d test -X -q -At -F'|' <<'SQL'
SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint, pid, state,
       coalesce(wait_event_type, ''), coalesce(wait_event, ''),
       coalesce((extract(epoch FROM clock_timestamp() - xact_start) * 1000)::int, -1),
       regexp_replace(left(query, 100), '\s+', ' ', 'g')
  FROM pg_stat_activity
 WHERE datname = 'test' AND pid <> pg_backend_pid() AND state <> 'idle' AND backend_type = 'client backend'
\watch 0.05
SQL
