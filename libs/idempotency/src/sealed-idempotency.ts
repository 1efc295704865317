import { DataSource } from 'typeorm';
import { Sealed, WebhookSecretCipher } from '@app/cipher';
import { CallerContext } from '@app/contracts';
import { IdempotencyService } from './idempotency.service';

/** What a key's row keeps of an answer that carries a secret: the answer sealed (base64), never the secret in clear. */
interface SealedAnswer {
  sealed: { keyId: string; blob: string };
}

export interface SealedRunOptions<T> {
  /** The answer shows a secret: store it sealed and open it for the replay. */
  secret?: boolean;
  /** The answer shows a credential only once: store what this leaves of it, so a replay answers the rest. */
  shownOnce?: (answer: T) => T;
}

/**
 * Changes under an Idempotency-Key whose work runs in its own transactions (the gateway's own changes, the
 * webhooks service's): the key is leased in a row committed on its own, the answer is stored when the work is
 * done, and a retry replays it; 409 while the first is in progress, 422 with another body or operation. A
 * failed request frees its key. An answer that shows a secret (`secret`: a signing secret, a connection's
 * credentials) is stored sealed with the webhook secrets' keys (AES-256-GCM, bound to the key's owner and the
 * Idempotency-Key) and opened for the replay, so the row never holds it in clear. An answer that shows a
 * credential only once (`shownOnce`: an API key, stored hashed) is stored without it: a replay answers the
 * rest, and the credential is not kept in any form.
 */
export class SealedIdempotency {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  run<T>(
    ctx: Pick<CallerContext, 'merchantCode' | 'environment' | 'idempotencyKey'> & Partial<CallerContext>,
    operation: string,
    request: unknown,
    work: () => Promise<T>,
    o: SealedRunOptions<T> = {},
  ): Promise<T> {
    const caller: CallerContext = { requestId: '', ...ctx };
    const owner = `${ctx.environment}:${ctx.merchantCode}:${ctx.idempotencyKey ?? ''}`;
    const done = this.idempotency.leased<T | SealedAnswer>(caller, operation, request ?? {}, async (run) => {
      const answer = await work();
      const stored = o.shownOnce
        ? o.shownOnce(answer)
        : o.secret
          ? sealedAnswer(this.cipher.sealAnswer(owner, JSON.stringify(answer)))
          : answer;
      await run.answer(this.db.manager, stored);
      return answer;
    });
    return done.then((answer) =>
      o.secret && isSealed(answer) ? (JSON.parse(this.cipher.openAnswer(owner, openable(answer))) as T) : (answer as T),
    );
  }
}

const sealedAnswer = ({ keyId, blob }: Sealed): SealedAnswer => ({ sealed: { keyId, blob: blob.toString('base64') } });
const openable = ({ sealed }: SealedAnswer): Sealed => ({
  keyId: sealed.keyId,
  blob: Buffer.from(sealed.blob, 'base64'),
});

const isSealed = (answer: unknown): answer is SealedAnswer =>
  typeof answer === 'object' && answer !== null && 'sealed' in answer && Object.keys(answer).length === 1;
