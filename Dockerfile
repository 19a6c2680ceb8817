# One image for every process of the distributed mode; docker-compose.yml picks the command.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The young generation's size: requests in flight die young at 16 MiB per semi-space (docs/decisions.md, bench/RESULTS.md).
ENV NODE_OPTIONS=--max-semi-space-size=16
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --include=dev
COPY . .
RUN npm run build && npm prune --omit=dev
USER node
EXPOSE 4000
# Not in NODE_OPTIONS, which node refuses it in: the old generation grows by half its live size between full collections (docs/decisions.md).
CMD ["node", "--heap-growing-percent=50", "dist/gateway/main.js"]
