#!/usr/bin/env bash
# Builds the repository's Dockerfile where no image registry is reachable, only Debian's package
# repositories and the npm registry (docs/operations.md, "Building the image without a registry").
# The Dockerfile's base, node:24-bookworm-slim by default, is made here instead: a minimal Debian
# root file system from mmdebstrap, Node's official binary from the npm registry's
# `node-linux-<arch>` package and the npm that Node release bundles, from the `npm` package.
#
#   deploy/image/build-offline.sh [image]     as root; default image localhost/healthcare-practice-platform:latest
#
# Needs podman, mmdebstrap and, with cgroups v1, runc (`apt-get install podman mmdebstrap runc`),
# and npm on the host. Environment: NODE_VERSION, NPM_VERSION, SUITE (bookworm), MIRROR
# (http://deb.debian.org), REBUILD_BASE=1 to make the base again although an image of that name
# exists, SMOKE_DATABASE_URL and SMOKE_PORT to run what was built (at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."

image=${1:-localhost/healthcare-practice-platform:latest}
node_version=${NODE_VERSION:-24.21.0}
# The npm that Node 24.21.0 bundles (its CHANGELOG: "deps: upgrade npm to 11.19.0" in 24.20.0),
# so the base matches the official image's.
npm_version=${NPM_VERSION:-11.19.0}
# The official image's suite; the node binary needs glibc 2.28 or later, any current suite has it.
suite=${SUITE:-bookworm}
mirror=${MIRROR:-http://deb.debian.org}
base=localhost/hpp-node-base:$node_version-$suite

for tool in podman mmdebstrap npm; do
  command -v "$tool" >/dev/null || { echo "build-offline: $tool is missing (apt-get install podman mmdebstrap runc)" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "build-offline: run as root (mmdebstrap and podman's storage)" >&2; exit 1; }
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "build-offline: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac

# The podman command (runc where cgroups are v1) and the run flags (ulimits) this host needs.
# shellcheck source=deploy/image/podman-flags.sh
. deploy/image/podman-flags.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# npm's own settings on this host (registry, proxies, scoped registries, tokens) reach the build as
# a secret file, never as a layer: `npm ci` in the Dockerfile reads it through NPM_CONFIG_USERCONFIG.
npmrc=$work/npmrc
{
  for key in registry proxy https-proxy noproxy strict-ssl; do
    value=$(npm config get "$key")
    case "$value" in ''|null|undefined) ;; *) echo "$key=$value" ;; esac
  done
  # Scoped registries and credentials, as the user's file spells them.
  user_rc=$(npm config get userconfig)
  if [ -f "$user_rc" ]; then grep -E '^(//|@[^=]*:registry|_auth|always-auth)' "$user_rc" || true; fi
} >"$npmrc"
# The host may reach the registry through a TLS-inspecting proxy whose CA Node learns from
# NODE_EXTRA_CA_CERTS or npm's cafile. npm's cafile replaces the roots rather than adding to them,
# so the secret bundle carries the system's roots as well.
ca=$work/ca.pem
npm_cafile=$(npm config get cafile)
for file in "${NODE_EXTRA_CA_CERTS:-}" "$npm_cafile" /etc/ssl/certs/ca-certificates.crt; do
  if [ -n "$file" ] && [ -f "$file" ]; then cat "$file"; fi
done >"$ca"
if [ -s "$ca" ]; then echo "cafile=/run/secrets/npm_ca" >>"$npmrc"; fi

if [ -n "${REBUILD_BASE:-}" ] || ! "${podman[@]}" image exists "$base"; then
  started=$SECONDS
  echo "== base $base: node $node_version and npm $npm_version from the npm registry"
  (cd "$work" && npm pack --silent "node-linux-$arch@$node_version" "npm@$npm_version" >/dev/null)
  mkdir -p "$work/node" "$work/npm"
  tar -xzf "$work/node-linux-$arch-$node_version.tgz" -C "$work/node" --strip-components=1
  tar -xzf "$work/npm-$npm_version.tgz" -C "$work/npm" --strip-components=1
  echo "== base $base: Debian $suite (minbase) from $mirror"
  # The layout of Node's release tarball, which the official image unpacks into /usr/local, less
  # its C headers (67 MB): nothing in package-lock.json compiles a native addon. The node user
  # (uid 1000) is the Dockerfile's USER. Documentation and locales are left out, as in Debian's
  # slim images.
  mmdebstrap --variant=minbase --quiet \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook="cp -a '$work/node/bin/node' \"\$1/usr/local/bin/node\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$work/npm' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    "$suite" "$work/rootfs.tar" \
    "deb $mirror/debian $suite main" "deb $mirror/debian $suite-updates main" \
    "deb $mirror/debian-security $suite-security main"
  "${podman[@]}" import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change "ENV NODE_VERSION=$node_version" --change 'CMD ["node"]' \
    "$work/rootfs.tar" "$base" >/dev/null
  rm -f "$work/rootfs.tar"
  echo "== base $base: $("${podman[@]}" run --rm "${ulimits[@]}" "$base" sh -c 'echo node $(node --version), npm $(npm --version)') in $((SECONDS - started)) s"
fi

started=$SECONDS
echo "== $image from ./Dockerfile on $base"
# Host networking: the build's `npm ci` reaches the registry by this host's own resolver and
# routes, whatever proxying they do, with no bridge between.
"${podman[@]}" build --network host "${ulimits[@]}" --build-arg "BASE_IMAGE=$base" \
  --secret "id=npmrc,src=$npmrc" --secret "id=npm_ca,src=$ca" \
  --tag "$image" --file Dockerfile .
echo "== $image: built in $((SECONDS - started)) s, $("${podman[@]}" image inspect --format '{{.Size}}' "$image" | numfmt --to=si) "

# SMOKE_DATABASE_URL set: the image migrates that database and serves /readyz from it, on the
# host's network at SMOKE_PORT (4000), as the Compose file's migrate service and gateway would.
if [ -n "${SMOKE_DATABASE_URL:-}" ]; then
  port=${SMOKE_PORT:-4000}
  run=("${podman[@]}" run --network host "${ulimits[@]}" -e "DATABASE_URL=$SMOKE_DATABASE_URL")
  echo "== smoke: migrate, then the gateway on 127.0.0.1:$port"
  "${run[@]}" --rm "$image" node dist/gateway/migrate.js >/dev/null
  container=$("${run[@]}" -d -e "PORT=$port" -e HOST=127.0.0.1 "$image")
  trap '"${podman[@]}" rm -f "$container" >/dev/null; rm -rf "$work"' EXIT
  started=$SECONDS
  until answer=$(curl -sf "http://127.0.0.1:$port/readyz"); do
    if [ $((SECONDS - started)) -ge 60 ] || [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$container")" != true ]; then
      "${podman[@]}" logs "$container" >&2
      echo "== smoke: no answer from /readyz" >&2
      exit 1
    fi
    sleep 0.5
  done
  echo "== smoke: /readyz answered $answer after $((SECONDS - started)) s"
fi
