# One image for every platform process; the compose file picks the entry point.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-fund --no-audit
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg espeak-ng fonts-dejavu-core apertium apertium-eng-spa ca-certificates && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data/media /data/media-work && chown -R node /data
WORKDIR /app
ENV NODE_ENV=production WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
COPY package.json ./
USER node
CMD ["node", "dist/workers/api.js"]
