#!/usr/bin/env bash
# Builds stand-ins for docker-compose.yml's postgres:16 and redis:7 where no image registry is
# reachable, only Debian's package repositories (docs/operations.md, "Docker Compose"): a minimal
# Debian from mmdebstrap, as deploy/image/build-offline.sh makes its base, with Debian's own
# PostgreSQL (bookworm ships 15) and Redis (7.0) packages.
#
#   deploy/image/build-offline-services.sh     as root; then POSTGRES_IMAGE=... REDIS_IMAGE=... docker-compose up
#
# The PostgreSQL image has the official image's interface that the Compose file relies on: its
# entrypoint itself (deploy/image/postgres/docker-entrypoint.sh, vendored from docker-library),
# so POSTGRES_PASSWORD, POSTGRES_USER, POSTGRES_DB and /docker-entrypoint-initdb.d/ behave the
# same; PGDATA=/var/lib/postgresql/data, the postgres user as uid 999, gosu, pg_isready,
# listen_addresses '*', an en_US.utf8 locale, STOPSIGNAL SIGINT and CMD postgres. The Redis image
# runs redis-server as the redis user in /data with protected mode off, as the official image's
# build does, so other containers reach it without a password; redis-cli is there.
#
# Needs podman and mmdebstrap (and runc with cgroups v1). Environment: SUITE (bookworm), MIRROR
# (http://deb.debian.org), PG_MAJOR (15, the suite's PostgreSQL), POSTGRES_IMAGE
# (localhost/hpp-postgres:$PG_MAJOR-$SUITE), REDIS_IMAGE (localhost/hpp-redis:7-$SUITE),
# REBUILD=1 to make them again although images of those names exist.
set -euo pipefail
cd "$(dirname "$0")/../.."

suite=${SUITE:-bookworm}
mirror=${MIRROR:-http://deb.debian.org}
pg_major=${PG_MAJOR:-15}
postgres_image=${POSTGRES_IMAGE:-localhost/hpp-postgres:$pg_major-$suite}
redis_image=${REDIS_IMAGE:-localhost/hpp-redis:7-$suite}

for tool in podman mmdebstrap; do
  command -v "$tool" >/dev/null || { echo "build-offline-services: $tool is missing (apt-get install podman mmdebstrap runc)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "build-offline-services: run as root (mmdebstrap and podman's storage)" >&2; exit 1; }
# shellcheck source=deploy/image/podman-flags.sh
. deploy/image/podman-flags.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# rootfs TAR MMDEBSTRAP-OPTIONS...: a minbase Debian without recommended packages, documentation
# and apt's lists, as Debian's slim images.
rootfs() {
  local tar=$1
  shift
  mmdebstrap --variant=minbase --quiet --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    "$@" \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$suite" "$tar" \
    "deb $mirror/debian $suite main" "deb $mirror/debian $suite-updates main" \
    "deb $mirror/debian-security $suite-security main"
}

if [ -n "${REBUILD:-}" ] || ! "${podman[@]}" image exists "$postgres_image"; then
  started=$SECONDS
  echo "== $postgres_image: Debian $suite's postgresql-$pg_major from $mirror"
  # The official image's steps, in its order: the postgres user (999) before the packages, which
  # would otherwise make one of their own (written into the files: groupadd is not installed yet); no cluster of postgresql-common's (the entrypoint makes
  # PGDATA's); the locale; listen_addresses '*' in the sample initdb copies; the folders.
  rootfs "$work/postgres.tar" \
    --essential-hook='echo "postgres:x:999:" >>"$1/etc/group"' \
    --essential-hook='echo "postgres:x:999:999:PostgreSQL administrator:/var/lib/postgresql:/bin/bash" >>"$1/etc/passwd"' \
    --essential-hook='install -d -o 999 -g 999 -m 1777 "$1/var/lib/postgresql"' \
    --essential-hook='mkdir -p "$1/etc/postgresql-common/createcluster.d" && echo "create_main_cluster = false" >"$1/etc/postgresql-common/createcluster.d/docker.conf"' \
    --include="postgresql-$pg_major,gosu,locales,libnss-wrapper,xz-utils,zstd" \
    --customize-hook='rm -rf "$1"/etc/postgresql/*/main "$1"/var/lib/postgresql/*/main' \
    --customize-hook='echo "en_US.UTF-8 UTF-8" >>"$1/etc/locale.gen" && chroot "$1" locale-gen >/dev/null' \
    --customize-hook="sed -ri \"s!^#?(listen_addresses)\\s*=\\s*\\S+.*!\\1 = '*'!\" \"\$1/usr/share/postgresql/$pg_major/postgresql.conf.sample\"" \
    --customize-hook="grep -qF \"listen_addresses = '*'\" \"\$1/usr/share/postgresql/$pg_major/postgresql.conf.sample\"" \
    --customize-hook='install -d -o 999 -g 999 -m 3777 "$1/run/postgresql"' \
    --customize-hook='install -d -o 999 -g 999 -m 1777 "$1/var/lib/postgresql/data"' \
    --customize-hook='mkdir -p "$1/docker-entrypoint-initdb.d"' \
    --customize-hook="copy-in $PWD/deploy/image/postgres/docker-entrypoint.sh /usr/local/bin" \
    --customize-hook='chmod 0755 "$1/usr/local/bin/docker-entrypoint.sh"'
  "${podman[@]}" import --quiet \
    --change "ENV PATH=$path:/usr/lib/postgresql/$pg_major/bin" --change "ENV PG_MAJOR=$pg_major" \
    --change 'ENV LANG=en_US.utf8' --change 'ENV PGDATA=/var/lib/postgresql/data' \
    --change 'VOLUME /var/lib/postgresql/data' --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
    --change 'STOPSIGNAL SIGINT' --change 'EXPOSE 5432' --change 'CMD ["postgres"]' \
    "$work/postgres.tar" "$postgres_image" >/dev/null
  rm -f "$work/postgres.tar"
  echo "== $postgres_image: $("${podman[@]}" run --rm "${ulimits[@]}" "$postgres_image" postgres --version) in $((SECONDS - started)) s"
fi

if [ -n "${REBUILD:-}" ] || ! "${podman[@]}" image exists "$redis_image"; then
  started=$SECONDS
  echo "== $redis_image: Debian $suite's redis-server from $mirror"
  rootfs "$work/redis.tar" --include=redis-server \
    --customize-hook='chroot "$1" install -d -o redis -g redis /data'
  # Protected mode off: it refuses every client but loopback's when no password is set, and the
  # official image turns it off in its build for the same reason.
  "${podman[@]}" import --quiet \
    --change "ENV PATH=$path" --change 'USER redis' --change 'WORKDIR /data' --change 'VOLUME /data' \
    --change 'EXPOSE 6379' --change 'CMD ["redis-server", "--protected-mode", "no"]' \
    "$work/redis.tar" "$redis_image" >/dev/null
  rm -f "$work/redis.tar"
  echo "== $redis_image: $("${podman[@]}" run --rm "${ulimits[@]}" "$redis_image" redis-server --version | cut -d' ' -f1-3) in $((SECONDS - started)) s"
fi
