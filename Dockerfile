# One image for every process of the registry; the command picks one (scripts/entrypoint.sh):
#   api | worker | web | migrate | registry ARGS        docs/DEPLOY.md explains each.
# The website's public settings are build arguments because its Content-Security-Policy and its
# prerendered 404/500 pages are fixed at build time; run the web containers with the same values.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
ARG NEXT_PUBLIC_API_URL=http://localhost:8080
ARG NEXT_PUBLIC_SITE_URL=http://localhost:3000
ARG NEXT_PUBLIC_FIREBASE_API_KEY=demo-api-key
ARG NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN=demo-comfy-registry.firebaseapp.com
ARG NEXT_PUBLIC_FIREBASE_PROJECT_ID=demo-comfy-registry
ARG NEXT_PUBLIC_MIXPANEL_TOKEN=
# Then the runtime keeps only production dependencies (tsx among them: the API runs TypeScript)
# and not the build's webpack cache.
RUN NEXT_PUBLIC_API_URL="$NEXT_PUBLIC_API_URL" NEXT_PUBLIC_SITE_URL="$NEXT_PUBLIC_SITE_URL" \
    NEXT_PUBLIC_FIREBASE_API_KEY="$NEXT_PUBLIC_FIREBASE_API_KEY" \
    NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN="$NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN" \
    NEXT_PUBLIC_FIREBASE_PROJECT_ID="$NEXT_PUBLIC_FIREBASE_PROJECT_ID" \
    NEXT_PUBLIC_MIXPANEL_TOKEN="$NEXT_PUBLIC_MIXPANEL_TOKEN" \
    npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf .next/cache

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    API_HOST=0.0.0.0 \
    DATA_DIR=/data
# The code belongs to root and is read-only to the process; it writes only its page cache
# (.next) and DATA_DIR (PGlite, archives on a volume).
COPY --from=build /app /app
RUN chown -R node:node /app/.next \
 && mkdir -p /data \
 && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["/app/scripts/entrypoint.sh", "healthcheck"]
ENTRYPOINT ["/app/scripts/entrypoint.sh"]
CMD ["api"]
