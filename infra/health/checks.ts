/**
 * Health probes of the three services every process depends on. Each probe
 * reports status and latency and never throws: a health route must answer
 * even when everything behind it is down.
 */
import { Knex } from 'knex';
import { Kafka } from 'kafkajs';
import { Connection } from '@temporalio/client';

export interface ServiceHealth {
  status: 'ok' | 'down';
  latency_ms: number;
  error?: string;
  [extra: string]: unknown;
}

export type Probe = () => Promise<Omit<ServiceHealth, 'latency_ms'> | void>;

/** Runs a probe with a time limit and measures it. */
export async function measure(probe: Probe, timeoutMs = 3000): Promise<ServiceHealth> {
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
  let timer: NodeJS.Timeout | undefined;
  try {
    const extra = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ...(extra ?? {}), status: 'ok', latency_ms: elapsed() };
  } catch (e) {
    return { status: 'down', latency_ms: elapsed(), error: (e as Error).message };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export function postgresProbe(db: Knex): Probe {
  return async () => {
    const r = await db.raw('select version() as v');
    return { status: 'ok', version: String(r.rows[0].v).split(' ').slice(0, 2).join(' ') };
  };
}

export function temporalProbe(connection: () => Promise<Connection>, namespace: string): Probe {
  return async () => {
    const conn = await connection();
    const ns = await conn.workflowService.describeNamespace({ namespace });
    return { status: 'ok', namespace: ns.namespaceInfo?.name ?? namespace };
  };
}

export function kafkaProbe(kafka: Kafka): Probe {
  return async () => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      const cluster = await admin.describeCluster();
      return { status: 'ok', brokers: cluster.brokers.length };
    } finally {
      await admin.disconnect();
    }
  };
}

/** Probes all given services in parallel; overall status ok only if all are. */
export async function checkAll(
  probes: Record<string, Probe>,
): Promise<{ status: 'ok' | 'degraded'; services: Record<string, ServiceHealth> }> {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((n) => measure(probes[n])));
  const services: Record<string, ServiceHealth> = {};
  names.forEach((n, i) => (services[n] = results[i]));
  return { status: results.every((r) => r.status === 'ok') ? 'ok' : 'degraded', services };
}

/** What /api/health reports: the services, and (API processes only) the platform's own processes. */
export interface HealthSnapshot {
  status: 'ok' | 'degraded';
  services: Record<string, ServiceHealth>;
  processes?: Record<string, { status: string; [detail: string]: unknown }>;
}
