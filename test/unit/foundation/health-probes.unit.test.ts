/**
 * The Kafka health probe keeps one admin connection between checks, drops it when a check fails and connects again
 * on the next; `close` disconnects it. The admin client here is a recording double of kafkajs' Admin (the real broker
 * path is covered by test/e2e/foundation/health.e2e.test.ts: ok with the stack's broker, down with none).
 */
import type { Kafka } from 'kafkajs';
import { kafkaProbe, measure } from '../../../infra/health/checks';

function recordingKafka(failures: Set<number>) {
  const log: string[] = [];
  let calls = 0;
  let admins = 0;
  const kafka = {
    admin: () => {
      const id = ++admins;
      return {
        connect: async () => void log.push(`connect ${id}`),
        disconnect: async () => void log.push(`disconnect ${id}`),
        describeCluster: async () => {
          calls++;
          log.push(`describe ${id}`);
          if (failures.has(calls)) throw new Error('Connection error: broker gone');
          return { brokers: [{ nodeId: 1, host: '127.0.0.1', port: 19092 }], controller: 1, clusterId: 'c' };
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, log };
}

describe('Kafka health probe', () => {
  it('reuses one connection across checks', async () => {
    const { kafka, log } = recordingKafka(new Set());
    const probe = kafkaProbe(kafka);
    for (let i = 0; i < 3; i++) expect(await measure(probe)).toMatchObject({ status: 'ok', brokers: 1 });
    await probe.close();
    expect(log).toEqual(['connect 1', 'describe 1', 'describe 1', 'describe 1', 'disconnect 1']);
  });

  it('reports a failed check as down, drops the connection and connects again on the next check', async () => {
    const { kafka, log } = recordingKafka(new Set([2]));
    const probe = kafkaProbe(kafka);
    expect((await measure(probe)).status).toBe('ok');
    expect(await measure(probe)).toMatchObject({ status: 'down', error: 'Connection error: broker gone' });
    expect((await measure(probe)).status).toBe('ok');
    await probe.close();
    expect(log).toEqual([
      'connect 1',
      'describe 1',
      'describe 1',
      'disconnect 1',
      'connect 2',
      'describe 2',
      'disconnect 2',
    ]);
  });
});
