import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { Logger } from 'pino';
import { Subscription } from 'nats';
import { uuidv7 } from '@app/clock';
import { Environment, GatewaySubjects } from '@app/contracts';
import { DomainError } from '@app/errors';
import { NatsClient } from '@app/messaging';
import { LOGGER } from '@app/observability';
import { KeyType } from './api-key.entity';
import { ApiKeysRepository, KeyRecord } from './api-keys.repository';
import { KeyCache, UnknownKeyCache } from './key-cache';
import { MerchantsService } from './merchants.service';
import { KEY_PATTERN, Principal, unknownKey } from './principal';

export const KEY_CACHE_TTL_MS = Symbol('KEY_CACHE_TTL_MS');

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface CreatedKey {
  id: string;
  key: string;
  type: KeyType;
  environment: Environment;
  merchantCodes: string[];
  createdAt: string;
}

export interface KeyView {
  id: string;
  /** A label given in the dashboard; null for keys made through the admin API. */
  name: string | null;
  keyHint: string;
  type: KeyType;
  environment: Environment;
  merchantCodes: string[];
  createdAt: string;
  revokedAt: string | null;
}

/** Creating, revoking and authenticating API keys. Only SHA-256 hashes of keys are stored. */
@Injectable()
export class ApiKeysService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly cache: KeyCache;
  private readonly unknown: UnknownKeyCache;
  private subscription?: Subscription;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly merchants: MerchantsService,
    private readonly nats: NatsClient,
    @Inject(KEY_CACHE_TTL_MS) ttlMs: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.cache = new KeyCache(ttlMs);
    this.unknown = new UnknownKeyCache(ttlMs, 20_000);
  }

  /** Hear revocations made on other replicas (the cache TTL is the fallback if one is missed). */
  onApplicationBootstrap(): void {
    // Not awaited: start-up (and the CLI) must not wait for NATS just for this.
    this.nats.get().then(
      (nc) => {
        this.subscription = nc.subscribe(GatewaySubjects.keyRevoked, {
          callback: (_err, msg) => this.cache.evictKey(Buffer.from(msg.data).toString('utf8')),
        });
      },
      (e: unknown) => this.logger.warn({ err: e }, 'No key revocation broadcasts: NATS unavailable'),
    );
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  async create(merchantCodes: string[], type: KeyType, environment: Environment, name?: string): Promise<CreatedKey> {
    const merchants = await this.merchants.requireAll([...new Set(merchantCodes)]);
    const secret = randomBase62(32);
    const key = `${type === 'private' ? 'prv' : 'pub'}_${environment}_${secret}`;
    const id = uuidv7();
    const createdAt = await this.keys.insert({
      id,
      keyHash: hashKey(key),
      keyHint: `${key.slice(0, key.length - secret.length + 4)}…`,
      name: name ?? null,
      type,
      environment,
      merchantIds: merchants.map((x) => x.id),
    });
    return {
      id,
      key,
      type,
      environment,
      merchantCodes: merchants.map((x) => x.merchantCode),
      createdAt: createdAt.toISOString(),
    };
  }

  async revoke(id: string): Promise<KeyView> {
    let key = await this.keys.find(id);
    if (!key) throw DomainError.notFound('key', 'id');
    if (!key.revokedAt) {
      await this.keys.revoke(id);
      key = (await this.keys.find(id))!;
    }
    this.cache.evictKey(id);
    this.broadcastRevocation(id);
    return toView(key);
  }

  async find(id: string): Promise<KeyView | null> {
    const key = await this.keys.find(id);
    return key ? toView(key) : null;
  }

  async list(merchantCode?: string): Promise<KeyView[]> {
    return (await this.keys.newest(1000, merchantCode)).map(toView);
  }

  /** The principal of a bearer key, or 401 AUTH_INVALID. Served from the cache when it can be. */
  async authenticate(token: string): Promise<Principal> {
    if (!KEY_PATTERN.test(token)) throw new DomainError('AUTH_INVALID', 'Malformed API key');
    const hash = hashKey(token);
    const now = Date.now();
    const principal = this.unknown.get(hash, now)
      ? null
      : (this.cache.get(hash, now) ?? (await this.lookup(hash, now)));
    if (!principal) throw unknownKey();
    return principal;
  }

  private async lookup(hash: string, now: number): Promise<Principal | null> {
    const row = await this.keys.byHash(hash);
    const principal: Principal | null = row
      ? {
          keyId: row.id,
          type: row.type,
          environment: row.environment,
          merchantCodes: row.codes,
          merchantIds: Object.fromEntries(row.codes.map((code, i) => [code, Number(row.ids[i])])),
        }
      : null;
    if (principal) this.cache.set(hash, principal, now);
    else this.unknown.set(hash, true, now);
    return principal;
  }

  private broadcastRevocation(id: string): void {
    const nc = this.nats.current();
    if (!nc) return;
    try {
      nc.publish(GatewaySubjects.keyRevoked, Buffer.from(id));
    } catch (e) {
      this.logger.warn(
        { err: e },
        'Could not broadcast a key revocation; other replicas honour it within the cache TTL',
      );
    }
  }
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

function toView(k: KeyRecord): KeyView {
  return {
    id: k.id,
    name: k.name,
    keyHint: k.keyHint,
    type: k.type,
    environment: k.environment,
    merchantCodes: [...k.merchantCodes].sort(),
    createdAt: k.createdAt.toISOString(),
    revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
  };
}
