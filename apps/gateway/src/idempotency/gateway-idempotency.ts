import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { Sealed, WebhookSecretCipher } from '@app/cipher';
import { CallerContext, IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_HEADER } from '@app/contracts';
import { checkIdempotencyKey, IdempotencyService } from '@app/idempotency';
import { documentedParam } from '../auth/caller.decorator';

/**
 * The key scope of the operators' API: no merchant owns an admin request. No merchant code can take this value
 * (merchant codes are letters, digits, _ and -), so an operator's key never meets a merchant's.
 */
export const ADMIN_KEY_SCOPE = { merchantCode: '*admin', environment: 'production' } as const;

/** What a key's row keeps of an answer that carries a secret: the answer sealed (base64), never the secret in clear. */
interface SealedAnswer {
  sealed: { keyId: string; blob: string };
}

/** The Idempotency-Key header (1-255 printable ASCII, else 400), or undefined: for routes without a merchant caller. */
const IdempotencyKeyParam = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers[IDEMPOTENCY_KEY_HEADER];
  const key = Array.isArray(header) ? header[0] : header;
  checkIdempotencyKey(key);
  return key;
});

export const IdempotencyKey = (): ParameterDecorator =>
  documentedParam(IdempotencyKeyParam(), [
    { VALIDATION_FAILED: `the \`Idempotency-Key\` header is not ${IDEMPOTENCY_KEY_FORMAT}` },
  ]);

/**
 * The gateway's own changes (the sandbox clock, the admin API) under an Idempotency-Key,
 * through the shared library: the key is leased in a row committed on its own (the work runs in the gateway's
 * services, each with its own transactions), the answer is stored when the work is done, and a retry replays it;
 * 409 while the first is in progress, 422 with another body or operation. A failed request frees its key. An
 * answer that shows a secret (a connection's credentials, an API key) is stored sealed with the webhook secrets'
 * keys (AES-256-GCM, bound to the key's owner and the Idempotency-Key) and opened for the replay, so the row
 * never holds it in clear. An answer that shows a credential only once (an API key, stored hashed) is stored
 * without it (`shownOnce`): a replay answers the rest, and the credential is not kept in any form.
 */
export class GatewayIdempotency {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly db: DataSource,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  run<T>(
    ctx: Pick<CallerContext, 'merchantCode' | 'environment' | 'idempotencyKey'>,
    operation: string,
    request: unknown,
    work: () => Promise<T>,
    o: { secret?: boolean; shownOnce?: (answer: T) => T } = {},
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
