/**
 * Builds the workflow bundle the worker loads in production
 * (WORKFLOW_BUNDLE_PATH=dist/workflow-bundle.js). Bundling checks workflow
 * code for determinism problems (Node built-ins) at build time, not in prod.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? 'dist/workflow-bundle.js');
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    // Webpack's module list is noise in start-up output; warnings and errors still show.
    logger: new DefaultLogger('WARN'),
  });
  mkdirSync(path.dirname(out), { recursive: true });
  // Written beside and renamed into place: a worker of a test run going on beside this build never reads half a file.
  const partial = `${out}.${process.pid}.partial`;
  writeFileSync(partial, code);
  renameSync(partial, out);
  process.stdout.write(`workflow bundle: ${out} (${(code.length / 1024).toFixed(0)} KiB)\n`);
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exit(1);
});
