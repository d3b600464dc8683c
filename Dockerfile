# syntax=docker/dockerfile:1
#
# One production image for every Locus process (deploy/README.md):
#   API (default)  node --import tsx services/api/src/main.ts     serves the web app too
#   worker         node --import tsx services/worker/src/main.ts
#   migrate        node --import tsx deploy/migrate.ts             one-shot, before each release
#
# docker build -t locus .
# The services run from their TypeScript sources through tsx's loader, as `npm start` runs them.

ARG NODE_IMAGE=node:20-bookworm-slim

# --- pnpm, at the version scripts/bootstrap.mjs pins (corepack fails its signature check on
#     some networks; npm installs it fine) ---------------------------------------------------
FROM ${NODE_IMAGE} AS pnpm
ARG PNPM_VERSION=10.34.9
ENV CI=true
RUN npm install -g pnpm@${PNPM_VERSION} && npm cache clean --force
WORKDIR /app
# Every package the lockfile names, into pnpm's store: one layer, reused while the lockfile
# stands still. Later installs are --offline against it, and --frozen-lockfile: exactly what
# pnpm-lock.yaml says, or the build fails.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch --store-dir /pnpm/store

# --- build: the whole workspace, then the web app -------------------------------------------
FROM pnpm AS build
COPY . .
RUN pnpm install --offline --frozen-lockfile --store-dir /pnpm/store
RUN pnpm --filter @locus/web run build

# --- runtime dependencies: the API, the worker and what they import, plus the root's tsx ---
FROM pnpm AS deps
COPY . .
# `locus` is the workspace root (its devDependencies hold tsx, the runtime loader); the `...`
# selects each service with the workspace packages it depends on. No web, tests, bench, infra:
# the fetched virtual store (every package) is dropped first, and their sources after.
RUN rm -rf node_modules \
 && pnpm install --offline --frozen-lockfile --store-dir /pnpm/store \
      --filter locus --filter '@locus/api...' --filter '@locus/worker...' \
 && rm -rf web tests bench examples infra

# --- the image -------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini reaps the translation engine's child processes and passes signals on (the API and the
# worker shut down gracefully on SIGTERM). Apertium is the chat's default offline translation
# (TRANSLATION_PROVIDER=apertium); build with --build-arg APERTIUM=false to leave it out.
ARG APERTIUM=true
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates \
      $(if [ "$APERTIUM" = true ]; then echo apertium apertium-eng-spa apertium-fr-es; fi) \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 locus \
 && useradd --system --uid 10001 --gid locus --home-dir /app --shell /usr/sbin/nologin locus
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    WEB_DIST_DIR=/app/web/dist
# Owned by root and read-only to the service user: the processes write nothing under /app
# (exports go to S3, the evidence key comes from the environment; tsx caches in /tmp).
COPY --from=deps /app /app
COPY --from=build /app/web/dist /app/web/dist
USER locus:locus
EXPOSE 3000
# The API's health (Postgres and Redis reachable). The worker serves no health endpoint: run it
# with the health check turned off (compose: `healthcheck: disable: true`); the API reports it.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "services/api/src/main.ts"]
