// A small TCP proxy in front of the PostgreSQL server, for tests (and `npm run chaos`) that do to
// one client's connections what production does to a whole server, without touching the server
// that other test files share: stall() holds every byte in both directions (a paused network or
// a frozen server: connections stay open, nothing arrives), refuse() resets every connection and
// refuses new ones (a server restarting), resume() lets everything through again.
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `url` (a postgres:// address) pointed at the proxy. */
  urlFor(url: string): string;
  readonly port: number;
  readonly mode: 'open' | 'stalled' | 'refusing';
  /** Holds every byte in both directions, of open and of new connections, until resume(). */
  stall(): void;
  /** Resets every open connection and refuses new ones until resume(). */
  refuse(): Promise<void>;
  /** Forwards again: the bytes held while stalled are delivered, in order. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: TcpProxy['mode'] = 'open';
  const connections = new Set<{ client: Socket; upstream: Socket; flush: () => void }>();

  /** Forwards `from` to `to`, or holds it while stalled; returns the function that delivers what was held. */
  const forward = (from: Socket, to: Socket) => {
    const held: Buffer[] = [];
    from.on('data', (chunk: Buffer) => {
      if (mode === 'stalled' || held.length) held.push(chunk);
      else to.write(chunk);
    });
    return () => {
      for (const chunk of held.splice(0)) to.write(chunk);
    };
  };

  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const toServer = forward(client, upstream);
    const toClient = forward(upstream, client);
    const entry = {
      client,
      upstream,
      flush: () => {
        toServer();
        toClient();
      },
    };
    connections.add(entry);
    // Either side gone: so is the other (a reset, not a polite close, when it failed).
    const end = () => {
      connections.delete(entry);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => server.close(() => resolve()));

  return {
    port,
    get mode() {
      return mode;
    },
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    stall() {
      mode = 'stalled';
    },
    async refuse() {
      mode = 'refusing';
      const closed = stopListening();
      for (const { client, upstream } of connections) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      connections.clear();
      await closed;
    },
    async resume() {
      if (mode === 'refusing') await listen();
      mode = 'open';
      for (const connection of connections) connection.flush();
    },
    async close() {
      const closed = mode === 'refusing' ? Promise.resolve() : stopListening();
      for (const { client, upstream } of connections) {
        client.destroy();
        upstream.destroy();
      }
      connections.clear();
      await closed;
    },
  };
}
