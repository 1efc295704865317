import { createServer, Server, Socket, connect } from 'node:net';

/** The startup message's protocol codes that are requests answered before the real startup (SSL, GSS). */
const PRE_STARTUP_REQUESTS = new Set([80877103, 80877104]);

/**
 * A TCP proxy in front of PostgreSQL that counts round trips per database. A round trip is a flight of requests
 * (simple Queries 'Q' or extended-protocol Syncs 'S') that the client sends before the server has answered
 * anything since the previous flight: statements sent in pipeline mode without waiting (libs/database
 * pipelined) travel in one flight however many Syncs they hold; a client that waits for each answer before
 * the next statement makes one flight per statement. `syncs` counts the requests themselves (each one a
 * server-side answer and flush). The database of a connection is read from its startup message. Point an
 * app's *_DATABASE_URL at `urlOf(database)`.
 */
export class PgRoundTrips {
  private readonly counts = new Map<string, number>();
  private readonly syncCounts = new Map<string, number>();
  /** Each round trip's statements (the text of a Query, the Parse texts or Bind names of a batch), when `trace`. */
  readonly traced: { database: string; statements: string[] }[] = [];
  trace = false;
  private readonly texts = new Map<string, string>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<PgRoundTrips> {
    const server = createServer();
    const proxy = new PgRoundTrips(server, target);
    server.on('connection', (client) => proxy.link(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The URL of `database` through the proxy. */
  urlOf(database: string): string {
    const { port } = this.server.address() as { port: number };
    return `postgres://postgres@127.0.0.1:${port}/${database}`;
  }

  /** Round trips (or, `syncs`, requests) so far, by database. */
  snapshot(what: 'roundTrips' | 'syncs' = 'roundTrips'): Map<string, number> {
    return new Map(what === 'syncs' ? this.syncCounts : this.counts);
  }

  /** Round trips (or requests) per database since `before` (databases with none left out). */
  since(before: Map<string, number>, what: 'roundTrips' | 'syncs' = 'roundTrips'): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [db, n] of what === 'syncs' ? this.syncCounts : this.counts) {
      if (n - (before.get(db) ?? 0) > 0) out[db] = n - (before.get(db) ?? 0);
    }
    return out;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Tracing: what a message adds to the round trip under way; a Query or a Sync closes it. */
  private note(type: string, body: Buffer, batch: string[], database: string): string[] {
    const cstring = (at: number) => body.toString('utf8', at, body.indexOf(0, at));
    if (type === 'P') {
      const name = cstring(0);
      const text = cstring(body.indexOf(0) + 1)
        .replace(/\s+/g, ' ')
        .slice(0, 100);
      if (name) this.texts.set(name, text);
      return [...batch, text];
    }
    if (type === 'B') {
      const name = cstring(body.indexOf(0) + 1);
      return name ? [...batch, this.texts.get(name) ?? name] : batch;
    }
    if (type === 'Q' || type === 'S') {
      const statements = type === 'Q' ? [...batch, cstring(0).replace(/\s+/g, ' ').slice(0, 100)] : batch;
      this.traced.push({ database, statements });
      return [];
    }
    return batch;
  }

  private link(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    this.sockets.add(client).add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    let database = '?';
    let batch: string[] = [];
    // Whether the server answered since the client's last flight: a request now starts a new flight.
    let answered = true;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          const code = pending.readInt32BE(4);
          if (!PRE_STARTUP_REQUESTS.has(code)) {
            database = startupParameter(pending.subarray(8, length), 'database') ?? '?';
            startup = false;
          }
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const type = String.fromCharCode(pending[0]);
        if (this.trace) batch = this.note(type, pending.subarray(5, length), batch, database);
        if (type === 'Q' || type === 'S') {
          this.syncCounts.set(database, (this.syncCounts.get(database) ?? 0) + 1);
          if (answered) this.counts.set(database, (this.counts.get(database) ?? 0) + 1);
          answered = false;
        }
        pending = pending.subarray(length);
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      answered = true;
      client.write(chunk);
    });
    const end = (): void => {
      this.sockets.delete(client);
      this.sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  }
}

/** A parameter of a startup message's body: NUL-terminated name and value pairs. */
function startupParameter(body: Buffer, name: string): string | undefined {
  const parts = body.toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] === name) return parts[i + 1];
  return undefined;
}
