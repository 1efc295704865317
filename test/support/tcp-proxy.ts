import { createServer, Server, Socket, connect } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket;
  held: Buffer[];
}

/**
 * A TCP proxy in front of a server (NATS, PostgreSQL) that a test can stall or cut: while paused, what clients
 * send is held back, so a NATS client's publishes never reach the server and their acknowledgements never
 * come, as with a broker that has stopped answering (server-to-client traffic always flows); while cut, every
 * connection is dropped and new ones are closed at once, as with a server that is down.
 */
export class TcpProxy {
  private paused = false;
  private cutOff = false;
  private readonly links = new Set<Link>();

  private constructor(
    private readonly server: Server,
    private target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    server.on('connection', (client) => proxy.link(client, proxy.target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  pause(): void {
    this.paused = true;
  }

  /** Sends what was held back, then forwards again. */
  resume(): void {
    this.paused = false;
    for (const link of this.links) for (const chunk of link.held.splice(0)) link.upstream.write(chunk);
  }

  /** Drops every connection, and closes new ones at once until `restore()`. */
  cut(): void {
    this.cutOff = true;
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
  }

  restore(): void {
    this.cutOff = false;
  }

  /**
   * Sends new connections to another server and drops the ones to the old, as a Kubernetes Service does when
   * its endpoint moves to another pod (CloudNativePG's `-rw` Service after a failover).
   */
  retarget(target: { host: string; port: number }): void {
    this.target = target;
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }

  private link(client: Socket, target: { host: string; port: number }): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const link: Link = { client, upstream, held: [] };
    this.links.add(link);
    client.on('data', (chunk: Buffer) => (this.paused ? link.held.push(chunk) : upstream.write(chunk)));
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = (): void => {
      this.links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  }
}
