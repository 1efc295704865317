import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './ports';
import { waitUntil } from './wait';

/** The newest Debian PostgreSQL's binaries (initdb, pg_ctl, pg_basebackup). */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions.length) throw new Error(`no PostgreSQL binaries under ${root} (apt-get install postgresql)`);
  return join(root, versions[0], 'bin');
}

/** The postgres OS account when this runs as root (initdb and the server refuse root), else nobody to switch to. */
function osUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const r = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const g = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('running as root and there is no postgres OS user to run PostgreSQL as');
  return { uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

export interface PgServer {
  name: string;
  port: number;
  dataDir: string;
  url(database?: string): string;
}

/**
 * A PostgreSQL primary and a synchronous standby (streaming replication, `synchronous_commit = on`, the standby
 * named in `synchronous_standby_names`), each a server of its own on a temporary directory and port: a commit
 * the primary acknowledges has been flushed on the standby too. `killPrimary()` SIGKILLs the primary's
 * postmaster and every backend at once (a node lost for good), `promote()` makes the standby the primary.
 */
export class PgPair {
  private readonly bin = postgresBin();
  private readonly user = osUser();
  private readonly running = new Set<PgServer>();

  private constructor(
    private readonly dir: string,
    readonly primary: PgServer,
    readonly standby: PgServer,
  ) {}

  static async start(): Promise<PgPair> {
    const dir = mkdtempSync(join(tmpdir(), 'pg-pair-'));
    const server = async (name: string): Promise<PgServer> => {
      const port = await freePort();
      return {
        name,
        port,
        dataDir: join(dir, name),
        url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
      };
    };
    const pair = new PgPair(dir, await server('primary'), await server('standby'));
    try {
      await pair.init();
      return pair;
    } catch (e) {
      await pair.stop();
      throw e;
    }
  }

  private run(command: string, args: string[]): string {
    const full = join(this.bin, command);
    const r = this.user
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8', cwd: this.dir })
      : spawnSync(full, args, { encoding: 'utf8', cwd: this.dir });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${r.stderr}${r.stdout}`);
    return r.stdout;
  }

  private async init(): Promise<void> {
    if (this.user) chownSync(this.dir, this.user.uid, this.user.gid);
    const { primary, standby } = this;
    this.run('initdb', ['-D', primary.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    appendFileSync(
      join(primary.dataDir, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${primary.port}`,
        `unix_socket_directories = '${this.dir}'`,
        'max_connections = 300',
        'shared_buffers = 32MB',
        'wal_level = replica',
        'max_wal_senders = 4',
        'wal_keep_size = 256MB',
        'autovacuum = on',
        // An acknowledged commit is flushed on the standby too: what CloudNativePG's synchronous replication does.
        'synchronous_commit = on',
        `synchronous_standby_names = '${standby.name}'`,
        '',
      ].join('\n'),
    );
    this.startServer(primary);
    const from = ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'];
    this.run('pg_basebackup', [...from, '-D', standby.dataDir, '-X', 'stream', '-R', '-c', 'fast', '--no-sync']);
    appendFileSync(
      join(standby.dataDir, 'postgresql.auto.conf'),
      [
        `port = ${standby.port}`,
        `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${standby.name}'`,
        // Once promoted it has no standby of its own: it must not wait for one.
        "synchronous_standby_names = ''",
        '',
      ].join('\n'),
    );
    this.startServer(standby);
    await waitUntil(
      'the standby is the synchronous one',
      async () => (await this.syncState().catch(() => '')) === 'sync',
      30_000,
    );
  }

  /** How the primary replicates to the standby right now: `sync` once commits wait for it. */
  async syncState(): Promise<string | undefined> {
    const rows = await this.query<{ sync_state: string }>(
      this.primary,
      'SELECT sync_state FROM pg_stat_replication WHERE application_name = $1',
      [this.standby.name],
    );
    return rows[0]?.sync_state;
  }

  private startServer(s: PgServer): void {
    this.run('pg_ctl', ['-D', s.dataDir, '-l', join(this.dir, `${s.name}.log`), '-w', '-t', '60', 'start']);
    this.running.add(s);
  }

  async query<T = Record<string, any>>(
    s: PgServer,
    sql: string,
    params: unknown[] = [],
    db = 'postgres',
  ): Promise<T[]> {
    const pg = new Client({ connectionString: s.url(db) });
    await pg.connect();
    try {
      return (await pg.query(sql, params)).rows as T[];
    } finally {
      await pg.end();
    }
  }

  /** The postmaster's pid and its children's (the backends, the WAL sender, …). */
  private processes(s: PgServer): number[] {
    const pidFile = join(s.dataDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its last ')'.
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [postmaster, ...children];
  }

  /** SIGKILLs the primary's postmaster and all its processes at once: no shutdown, no last WAL sent. */
  async killPrimary(): Promise<void> {
    // Stopped first, the postmaster forks no backend between the listing of its children and their end: a
    // backend forked in that gap would outlive it and keep answering on its connection.
    const [postmaster] = this.processes(this.primary);
    if (postmaster) process.kill(postmaster, 'SIGSTOP');
    const pids = this.processes(this.primary).reverse(); // children first, the postmaster last
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    this.running.delete(this.primary);
    await waitUntil('the primary is dead', async () => pids.every((p) => !alive(p)), 10_000);
  }

  /** `pg_ctl promote`: the standby ends recovery and takes writes. Answers how long it took (ms). */
  promote(): number {
    const started = Date.now();
    this.run('pg_ctl', ['-D', this.standby.dataDir, '-w', '-t', '60', 'promote']);
    return Date.now() - started;
  }

  log(s: PgServer): string {
    try {
      return readFileSync(join(this.dir, `${s.name}.log`), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops what still runs (immediate mode) and removes both servers' directories. */
  async stop(): Promise<void> {
    for (const s of this.running) {
      try {
        this.run('pg_ctl', ['-D', s.dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        for (const pid of this.processes(s)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }
      }
    }
    this.running.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Whether a pid is a live process (a zombie left for its parent to reap counts as dead). */
function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
