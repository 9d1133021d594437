/** Writes docs/configuration.md from CONFIG_VARS of infra/config/ (the single source of the variables). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARS } from '../infra/config';

const rows = Object.entries(CONFIG_VARS).map(([name, v]) => {
  const extra = 'schema' in v && v.schema ? ` ${JSON.stringify(v.schema)}` : '';
  return `| \`${name}\` | ${v.type} | \`${String(v.default) || '(empty)'}\` | ${v.description}${extra ? ` — ${extra.trim()}` : ''} |`;
});
const doc = `# Configuration

Every process reads these environment variables through \`infra/config/\` and validates them with ajv at start;
a wrong value stops the process (exit code 78) with a message naming the variable. Defaults point at the local
stack of \`scripts/stack\`. This file is generated: \`npx tsx scripts/config-docs.ts\`.

| Variable | Type | Default | Meaning |
|---|---|---|---|
${rows.join('\n')}

## Local stack settings (scripts/stack)

| Variable | Default | Meaning |
|---|---|---|
| \`STACK_SERVICES\` | \`postgres temporal kafka\` | services the script runs locally; drop one when its address points elsewhere |
| \`STACK_PG_PORT\` | \`55432\` | PostgreSQL port (clear of a system server on 5432) |
| \`STACK_TEMPORAL_PORT\` / \`STACK_TEMPORAL_UI_PORT\` | \`7233\` / \`8233\` | Temporal frontend and Web UI |
| \`STACK_TEMPORAL_POLL_RPS\` | \`1000\` | task-queue reads per second of the dev server's one history shard (Temporal's default is 20: every dispatch past a burst then waits ~40 ms; docs/benchmarks.md, "Durable AI tasks") |
| \`STACK_KAFKA_PORT\` / \`STACK_KAFKA_CONTROLLER_PORT\` | \`19092\` / \`19093\` | Kafka broker and KRaft controller |
| \`TOOLS_DIR\` / \`RUN_DIR\` | \`.tools\` / \`.run\` | installed tools (Temporal CLI, Kafka jars) / data, logs and pids |
`;
writeFileSync(path.resolve(__dirname, '../docs/configuration.md'), doc);
process.stdout.write('docs/configuration.md written\n');
