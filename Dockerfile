# syntax=docker/dockerfile:1
# One image for all four apps. Pick the app with the APP build-arg/env (gateway | payments | payment-links |
# billing) or override the command: `node dist/apps/<app>/src/main.js` (docker-compose.yml and k8s/ do).
ARG NODE_IMAGE=node:22-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund

FROM deps AS build
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY libs ./libs
COPY apps ./apps
COPY clients ./clients
# npm run build runs it: it builds the browser package (clients/browser) into dist/browser.
COPY scripts/build-browser.js ./scripts/
# tsc only emits .js; copy the other source files (templates, static pages, SQL) next to them.
RUN npm run build \
  && find apps libs -type f ! -name '*.ts' -exec cp --parents {} dist/ \;

FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# The same flags as scripts/app-node-options.js (checked by test/deploy): keeps each app under 200 MB RSS.
ENV NODE_OPTIONS=--max-old-space-size=128
WORKDIR /app
# Owned by root and read-only for the app user: the process needs no writable path in /app.
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
ARG APP=gateway
ENV APP=${APP}
# The image's `node` user, numeric so Kubernetes can enforce runAsNonRoot.
USER 1000:1000
EXPOSE 3000 3001 3002 3003 3100
CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]
