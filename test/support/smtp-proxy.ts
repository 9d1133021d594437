/**
 * A TCP proxy in front of a test SMTP server that can hold back the server's
 * acceptance of a message: the server has taken the message (and delivered
 * it), the client has not heard so. A test kills the sending worker in that
 * moment to check a retry never sends twice.
 */
import { createServer, connect, Server, Socket } from 'node:net';

export interface SmtpProxy {
  port: number;
  /** Resolves when the server accepted a message whose 250 reply is being held back. */
  held: Promise<void>;
  /** How many messages the server accepted through the proxy. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startSmtpProxy(targetPort: number, opts: { holdFirstAcceptance: boolean }): Promise<SmtpProxy> {
  let holding = opts.holdFirstAcceptance;
  let count = 0;
  let onHeld: () => void = () => undefined;
  const held = new Promise<void>((r) => (onHeld = r));
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let tail = '';
    let dataEnded = false;
    client.on('data', (d) => {
      tail = (tail + d.toString('latin1')).slice(-5);
      if (tail === '\r\n.\r\n') dataEnded = true;
      upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (dataEnded && /^250/.test(d.toString('latin1'))) {
        dataEnded = false;
        count++;
        if (holding) {
          holding = false;
          onHeld();
          return; // the acceptance never reaches the client
        }
      }
      client.write(d);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    held,
    accepted: () => count,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
