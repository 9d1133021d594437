/**
 * A TCP proxy on 127.0.0.1 in front of a real HTTP server that watches the answers going through: which
 * connections are in the middle of an event stream (`text/event-stream` data seen, connection still open) and how
 * much of it has passed. A test kills a worker at that moment to show a generation cut mid-stream is charged once.
 */
import { createServer, connect, Server, Socket } from 'node:net';
import { waitFor } from './wait';

export interface StreamWatch {
  /** Event-stream answers that began on this connection (a kept-alive connection carries several). */
  streams: number;
  /** Bytes of the current event-stream answer the client has received so far. */
  streamedBytes: number;
  /** The connection closed (either side). */
  closed: boolean;
  /** The current stream's end (`data: [DONE]`) went through. */
  done: boolean;
}

export interface StreamProxy {
  port: number;
  connections: StreamWatch[];
  /** Resolves when some connection is mid-stream with at least `bytes` of data through. */
  midStream(bytes: number, timeoutMs?: number): Promise<StreamWatch>;
  close(): Promise<void>;
}

export async function startStreamProxy(targetPort: number): Promise<StreamProxy> {
  const connections: StreamWatch[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const watch: StreamWatch = { streams: 0, streamedBytes: 0, closed: false, done: false };
    connections.push(watch);
    let streaming = false;
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => {
      const text = d.toString('utf8');
      if (/content-type: text\/event-stream/i.test(text)) {
        streaming = true;
        watch.streams += 1;
        watch.streamedBytes = 0;
        watch.done = false;
      }
      if (streaming) watch.streamedBytes += d.length;
      if (streaming && text.includes('data: [DONE]')) watch.done = true;
      client.write(d);
    });
    const end = () => {
      watch.closed = true;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections,
    async midStream(bytes, timeoutMs = 120_000) {
      return waitFor(
        `a connection to reach ${bytes} streamed bytes`,
        () => connections.find((c) => !c.closed && !c.done && c.streamedBytes >= bytes),
        timeoutMs,
        20,
        () => `connections: ${JSON.stringify(connections)}`,
      );
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
