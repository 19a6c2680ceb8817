#!/usr/bin/env bash
# Runs docker-compose.yml end to end on a machine with no image registry, only Debian's package
# repositories and the npm registry (docs/operations.md, "Docker Compose"), and checks it: builds
# the images that are missing (deploy/image/build-offline.sh, build-offline-services.sh), starts
# the Compose file under docker-compose 1.29 against podman's Docker-compatible API with the
# stand-ins for postgres:16 and redis:7, then checks readiness, a tenant and API key, a dashboard
# written and listed over REST, the replica streaming and in use, and every process's metrics
# from inside the network. It tears everything down (containers, network, volumes) however it
# ends, and exits non-zero at the first failed check. Too slow for the CI; run it by hand.
#
#   deploy/compose/try-offline.sh        as root; apt-get install podman mmdebstrap runc iptables docker-compose
#
# Environment: APP_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE (the build scripts' default names),
# COMPOSE_PROJECT_NAME (hpp-try), KEEP=1 to leave it running (then tear it down with the
# `down` command it prints), and the build scripts' own variables.
set -euo pipefail
cd "$(dirname "$0")/../.."

export APP_IMAGE=${APP_IMAGE:-localhost/healthcare-practice-platform:latest}
export POSTGRES_IMAGE=${POSTGRES_IMAGE:-localhost/hpp-postgres:15-bookworm}
export REDIS_IMAGE=${REDIS_IMAGE:-localhost/hpp-redis:7-bookworm}
export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-hpp-try}
# Fresh secrets for this run only.
export OPERATOR_TOKEN=try-$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
export INTERNAL_SECRET=try-$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
export REPLICATION_PASSWORD=try-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')

for tool in podman docker-compose curl python3; do
  command -v "$tool" >/dev/null || { echo "try-offline: $tool is missing (apt-get install podman mmdebstrap runc iptables docker-compose curl)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "try-offline: run as root (podman's rootful network publishes :4000)" >&2; exit 1; }
# shellcheck source=deploy/image/podman-flags.sh
. deploy/image/podman-flags.sh
started=$SECONDS
step() { echo "== [$((SECONDS - started)) s] $*"; }
fail() { echo "try-offline: FAILED: $*" >&2; exit 1; }

# The Compose file publishes the gateway on the host's :4000.
if (exec 3<>/dev/tcp/127.0.0.1/4000) 2>/dev/null; then fail "something already listens on :4000"; fi

step "images: $APP_IMAGE, $POSTGRES_IMAGE, $REDIS_IMAGE (built if missing)"
"${podman[@]}" image exists "$APP_IMAGE" || deploy/image/build-offline.sh "$APP_IMAGE"
deploy/image/build-offline-services.sh

work=$(mktemp -d)
service_pid=
healthchecks_pid=
compose=(docker-compose --project-name "$COMPOSE_PROJECT_NAME" --file docker-compose.yml)
teardown() {
  local status=$?
  if [ -n "${KEEP:-}" ] && [ "$status" = 0 ]; then
    echo "== left running; to stop: DOCKER_HOST=$DOCKER_HOST ${compose[*]} down -v, then kill $service_pid $healthchecks_pid"
    return
  fi
  if [ "$status" != 0 ] && [ -n "$service_pid" ]; then "${compose[@]}" logs --tail=40 >&2 2>&1 || true; fi
  step "down: containers, network and volumes"
  local down=$SECONDS
  if [ -n "$service_pid" ]; then "${compose[@]}" down --volumes --remove-orphans || true; fi
  step "down took $((SECONDS - down)) s"
  [ -z "$healthchecks_pid" ] || kill "$healthchecks_pid" 2>/dev/null || true
  [ -z "$service_pid" ] || kill "$service_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
  local left
  left=$("${podman[@]}" ps --all --quiet --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME")
  if [ -n "$left" ]; then echo "try-offline: containers left: $left" >&2; status=1; fi
  if "${podman[@]}" volume ls --quiet | grep -q "^${COMPOSE_PROJECT_NAME}_"; then echo "try-offline: volumes left" >&2; status=1; fi
  exit "$status"
}
trap teardown EXIT

# podman's Docker-compatible API for docker-compose, with this host's runtime and limits as the
# defaults of every container it creates (the Compose file sets neither, as Docker needs neither).
{
  echo '[containers]'
  echo "default_ulimits = [\"nofile=$podman_nofile:$podman_nofile\", \"nproc=$podman_nproc:$podman_nproc\"]"
  if [ "${podman[*]}" != podman ]; then printf '[engine]\nruntime = "runc"\n'; fi
} >"$work/containers.conf"
export DOCKER_HOST=unix://$work/podman.sock
CONTAINERS_CONF=$work/containers.conf podman system service --time=0 "$DOCKER_HOST" >"$work/service.log" 2>&1 &
service_pid=$!
for _ in $(seq 50); do [ -S "$work/podman.sock" ] && break; sleep 0.2; done
[ -S "$work/podman.sock" ] || fail "podman system service did not open $DOCKER_HOST: $(cat "$work/service.log")"

# podman runs a container's HEALTHCHECK from a systemd timer; with no systemd (a container, a
# sandbox) nothing runs it and `condition: service_healthy` would wait for ever. Here this loop is
# that timer, at the Compose file's 2 s interval.
if [ ! -d /run/systemd/system ]; then
  (
    while sleep 2; do
      # A container with no HEALTHCHECK makes `healthcheck run` fail; that is all.
      for id in $("${podman[@]}" ps --quiet --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME"); do
        "${podman[@]}" healthcheck run "$id" >/dev/null 2>&1 || true
      done
    done
  ) &
  healthchecks_pid=$!
fi

step "up: $("${compose[@]}" version --short) on podman $(podman version --format '{{.Server.Version}}')"
"${compose[@]}" up --detach --no-build
step "up returned; waiting for the gateway's /readyz on :4000"
# 30 s on an idle two-core machine, 140 s at load 20.
for _ in $(seq 300); do
  code=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:4000/readyz || true)
  [ "$code" = 200 ] && break
  sleep 1
done
[ "$code" = 200 ] || fail "/readyz answered $code"
step "ok: /readyz 200"

# json FIELD: a top-level field of the JSON document on stdin.
json() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
# call METHOD PATH [CURL-ARGS...]: the body; fails unless the status is 2xx.
call() {
  local method=$1 path=$2 out
  shift 2
  out=$(curl -sS -X "$method" -w '\n%{http_code}' "http://127.0.0.1:4000$path" "$@") || fail "$method $path: no answer"
  local code=${out##*$'\n'}
  case "$code" in 2??) printf '%s' "${out%$'\n'*}" ;; *) fail "$method $path answered $code: ${out%$'\n'*}" ;; esac
}

created=$(call POST /admin/tenants -H "Authorization: Bearer $OPERATOR_TOKEN" -H 'content-type: application/json' -d '{"name": "Compose Try"}')
tenant=$(printf '%s' "$created" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tenant"]["id"])')
key=$(printf '%s' "$created" | json apiKey)
step "ok: POST /admin/tenants: tenant $tenant and its first key"
issued=$(call POST "/admin/tenants/$tenant/api-keys" -H "Authorization: Bearer $OPERATOR_TOKEN")
key=$(printf '%s' "$issued" | json apiKey)
step "ok: POST /admin/tenants/$tenant/api-keys: a second live key (used below)"

auth=(-H "TENANT: $tenant" -H "API-KEY: $key")
dashboard=$(call POST /analytics/dashboards "${auth[@]}" -H 'content-type: application/json' -d '{"name": "Compose try"}' | json id)
step "ok: POST /analytics/dashboards: $dashboard"
# The list is read from the replica: a moment behind the primary at most.
for _ in $(seq 20); do
  listed=$(call GET /analytics/dashboards "${auth[@]}")
  case "$listed" in *"$dashboard"*) break ;; esac
  sleep 0.5
done
case "$listed" in *"$dashboard"*) ;; *) fail "GET /analytics/dashboards does not list $dashboard: $listed" ;; esac
step "ok: GET /analytics/dashboards lists it (total $(printf '%s' "$listed" | json total))"

streaming=$("${compose[@]}" exec -T postgres psql -U postgres -Atc "select client_addr, state, sync_state, replay_lag from pg_stat_replication" | tr -d '\r')
case "$streaming" in *'|streaming|'*) ;; *) fail "pg_stat_replication on the primary: '$streaming'" ;; esac
step "ok: pg_stat_replication on the primary: $streaming"
recovery=$("${compose[@]}" exec -T postgres-replica psql -U postgres -Atc 'select pg_is_in_recovery()' | tr -d '\r')
[ "$recovery" = t ] || fail "the replica is not in recovery: $recovery"
step "ok: postgres-replica is a hot standby (pg_is_in_recovery t)"

# scrape HOST: the metrics port's page, fetched by node inside the gateway's container (the port is
# not published, and the image has no curl).
scrape() {
  "${compose[@]}" exec -T gateway node -e '
    fetch(`http://${process.argv[1]}:9464/metrics`).then(async (r) => { if (!r.ok) throw new Error(`status ${r.status}`); process.stdout.write(await r.text()); })
      .catch((e) => { console.error(e.message); process.exit(1); });' "$1"
}
for host in gateway tenant billing analytics notes; do
  page=$(scrape "$host") || fail "$host:9464/metrics did not answer 200"
  grep -q '^process_cpu_user_seconds_total' <<<"$page" || fail "$host:9464/metrics has no process metrics"
  step "ok: $host:9464/metrics, $(grep -c '^[a-z]' <<<"$page") samples"
done
# The replica is probed every second; give it those seconds after startup.
for _ in $(seq 20); do
  page=$(scrape analytics)
  grep -q '^hpp_db_replica_in_use{pool="analytics"} 1$' <<<"$page" && break
  sleep 1
done
grep -q '^hpp_db_replica_in_use{pool="analytics"} 1$' <<<"$page" ||
  fail "analytics reads are not on the replica: $(grep '^hpp_db_replica' <<<"$page" | tr '\n' ' ')"
step "ok: analytics:9464 $(grep -E '^hpp_db_(replica_in_use|replica_lag_seconds|stale_reads_total)' <<<"$page" | tr '\n' ' ')"

step "all checks passed"
