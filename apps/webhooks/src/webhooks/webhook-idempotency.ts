import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Sealed, WebhookSecretCipher } from '@app/cipher';
import { CallerContext } from '@app/contracts';
import { IdempotencyService } from '@app/idempotency';

/** What a key's row keeps of an answer that carries a secret: the answer sealed (base64), never the secret in clear. */
interface SealedAnswer {
  sealed: { keyId: string; blob: string };
}

/**
 * The webhook changes under an Idempotency-Key (the gateway forwards the header in the caller), kept here beside
 * the data they change: the key is leased in a row committed on its own, the answer is stored when the work is
 * done, and a retry replays it; 409 while the first is in progress, 422 with another body or operation. A
 * failed request frees its key. Kept in this service, not at the gateway, so that a retry after the gateway's
 * 504 finds the key of the request the service did finish and replays it instead of doing it twice. An answer
 * that shows a signing secret is stored sealed with WEBHOOK_SECRET_KEYS (AES-256-GCM, bound to the key's owner
 * and the Idempotency-Key) and opened for the replay, so the row never holds it in clear.
 */
@Injectable()
export class WebhookIdempotency {
  constructor(
    private readonly idempotency: IdempotencyService,
    @InjectDataSource() private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  run<T>(
    ctx: CallerContext,
    operation: string,
    request: unknown,
    work: () => Promise<T>,
    o: { secret?: boolean } = {},
  ): Promise<T> {
    const owner = `${ctx.environment}:${ctx.merchantCode}:${ctx.idempotencyKey ?? ''}`;
    const done = this.idempotency.leased<T | SealedAnswer>(ctx, operation, request ?? {}, async (run) => {
      const answer = await work();
      const stored = o.secret ? sealedAnswer(this.cipher.sealAnswer(owner, JSON.stringify(answer))) : answer;
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
