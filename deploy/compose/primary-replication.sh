#!/bin/bash
# Run once by the postgres image's entrypoint when the primary's data folder is created
# (/docker-entrypoint-initdb.d): the role the replica's pg_basebackup and WAL stream log in as,
# and the pg_hba.conf line that lets it in. initdb's own replication lines cover only local
# connections, and "all" in pg_hba.conf's database column never matches replication.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" -v password="$REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
# samenet: any address of a network the server's container is on, i.e. the compose network only.
echo "host replication replicator samenet scram-sha-256" >> "$PGDATA/pg_hba.conf"
