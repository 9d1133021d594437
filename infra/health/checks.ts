/**
 * Health probes of the three services every process depends on. Each probe
 * reports status and latency and never throws: a health route must answer
 * even when everything behind it is down.
 */
import { Knex } from 'knex';
import type { Admin, Kafka } from 'kafkajs';
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

/**
 * Kafka's probe keeps one admin connection from check to check: a connection per check (TCP, API versions, metadata,
 * then disconnect) cost several broker round trips, and on a loaded machine outlasted the time limit, reporting a
 * broker that was up as down. A failed check drops the connection; the next one connects again. `close` ends it.
 */
export function kafkaProbe(kafka: Kafka): Probe & { close(): Promise<void> } {
  let admin: Promise<Admin> | undefined;
  const close = async () => {
    const current = admin;
    admin = undefined;
    const a = await current?.catch(() => undefined);
    await a?.disconnect().catch(() => undefined);
  };
  const probe = async () => {
    if (!admin) {
      const a = kafka.admin();
      admin = a.connect().then(() => a);
    }
    try {
      const cluster = await (await admin).describeCluster();
      return { status: 'ok' as const, brokers: cluster.brokers.length };
    } catch (e) {
      await close();
      throw e;
    }
  };
  return Object.assign(probe, { close });
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
