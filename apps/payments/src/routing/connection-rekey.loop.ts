import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction } from '@app/database';
import { PAYMENTS_CONFIG, PaymentsConfig } from '../config';
import { PeriodicLoop } from '@app/platform';
import { ConnectionCredentialsCipher } from './connection-credentials';
import { ConnectionRepository } from './connection.repository';

const BATCH = 50;

/**
 * Key rotation of connection credentials: every CONNECTION_REKEY_SWEEP_MS, connections sealed under another
 * key than CONNECTION_CREDENTIAL_KEYS' first are opened with their own key and sealed again under the first,
 * claimed with FOR UPDATE SKIP LOCKED. The credentials are the same, so payments never stop: a replica still
 * running with the old key list opens the new key id only once it has it, which is why the new key goes into
 * every replica's list (second) before it becomes first.
 */
@Injectable()
export class ConnectionRekeyLoop extends PeriodicLoop {
  readonly loopName = 'connection_rekey';

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly connections: ConnectionRepository,
    private readonly cipher: ConnectionCredentialsCipher,
    @Inject(PAYMENTS_CONFIG) private readonly config: PaymentsConfig,
  ) {
    super();
  }

  protected everyMs(): number {
    return this.config.CONNECTION_REKEY_SWEEP_MS;
  }

  protected async work(): Promise<boolean> {
    return this.swept(await this.runOnce(), 'connection credentials re-encrypted under the current key', BATCH);
  }

  /** Re-seals one batch; answers how many rows it took. */
  runOnce(): Promise<number> {
    return inTransaction(this.db, async (m) => {
      const stale = await this.connections.staleCredentials(m, this.cipher.currentKeyId, BATCH);
      for (const row of stale) {
        const credentials = this.cipher.open(row, { keyId: row.credentialsKeyId!, blob: row.credentialsBlob! });
        await this.connections.reseal(m, row.id, this.cipher.seal(row, credentials));
      }
      return stale.length;
    });
  }
}
