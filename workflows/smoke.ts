/**
 * The smallest real workflow: one activity round trip. Used by the smoke test
 * and by the task benchmark as the ceiling "bare workflow with one no-op activity".
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { echo } = proxyActivities<Activities>({ startToCloseTimeout: '10s', retry: { maximumAttempts: 3 } });

export async function smokeWorkflow(message: string): Promise<string> {
  return await echo(message);
}
