/**
 * Temporal client connection. The API and scripts use a Client; the worker
 * uses a NativeConnection (see workers/temporal-worker.ts).
 */
import { Client, Connection } from '@temporalio/client';

export interface TemporalOptions {
  /** host:port of the Temporal frontend */
  address: string;
  namespace: string;
}

export async function connectTemporal(opts: TemporalOptions): Promise<{ client: Client; connection: Connection }> {
  const connection = await Connection.connect({ address: opts.address, connectTimeout: '5s' });
  const client = new Client({ connection, namespace: opts.namespace });
  return { client, connection };
}
