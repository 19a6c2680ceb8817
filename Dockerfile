# One image for every process of the distributed mode; docker-compose.yml picks the command.
# The base is an argument so that a machine with no image registry can build one of its own
# (deploy/image/build-offline.sh); everyone else gets the official image.
ARG BASE_IMAGE=node:24-bookworm-slim

# Two stages: the development dependencies, npm's cache (~400 MB) and what `npm prune` deletes
# would otherwise stay in the image's lower layers.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# An optional build secret `npmrc` (registry, proxy, credentials) is read for this step only and
# never lands in a layer; without it npm uses the public registry.
RUN --mount=type=secret,id=npmrc --mount=type=secret,id=npm_ca \
    NPM_CONFIG_USERCONFIG=/run/secrets/npmrc npm ci --no-audit --no-fund --include=dev
COPY . .
# The production tree installed again from npm's cache, offline: `npm prune --omit=dev` gives the
# same tree but took 5 min here against 16 s.
RUN npm run build && rm -rf node_modules && npm ci --omit=dev --offline --no-audit --no-fund

FROM ${BASE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
# The young generation's size: requests in flight die young at 16 MiB per semi-space (docs/decisions.md, bench/RESULTS.md).
ENV NODE_OPTIONS=--max-semi-space-size=16
COPY --from=build /app /app
USER node
EXPOSE 4000
# Not in NODE_OPTIONS, which node refuses it in: the old generation grows by half its live size between full collections (docs/decisions.md).
CMD ["node", "--heap-growing-percent=50", "dist/gateway/main.js"]
