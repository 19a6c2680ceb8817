#!/bin/bash
# The streaming replica's entrypoint: with an empty data folder, copy the primary once with
# pg_basebackup -R (which writes standby.signal and primary_conninfo), then run postgres as a hot
# standby. With a data folder already there it only starts postgres, which resumes streaming.
set -euo pipefail
mkdir -p "$PGDATA"
chown postgres:postgres "$PGDATA"
chmod 0700 "$PGDATA"
# The socket's folder, as the image's entrypoint makes it: an image's /run may not hold it (a
# tmpfs there, or the offline stand-in, whose /run mmdebstrap empties), and postgres will not start without it.
mkdir -p /var/run/postgresql
chown postgres:postgres /var/run/postgresql
chmod 03775 /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  # The primary may still be running its init scripts: retry until the replication role exists.
  until gosu postgres pg_basebackup --host=postgres --username=replicator --pgdata="$PGDATA" \
      --write-recovery-conf --wal-method=stream --checkpoint=fast --progress; do
    echo "replica: primary not ready for a base backup; retrying in 2 s" >&2
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
fi
exec gosu postgres postgres -c hot_standby=on
