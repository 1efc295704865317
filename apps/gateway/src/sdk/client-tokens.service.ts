import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import { Logger } from 'pino';
import { Clock } from '@app/clock';
import { CallerContext, ENVIRONMENTS, Environment, SdkSessionRequest, SdkSessionResponse } from '@app/contracts';
import { DomainError } from '@app/errors';
import { LOGGER } from '@app/observability';

export const CLIENT_TOKEN_OPTIONS = Symbol('CLIENT_TOKEN_OPTIONS');
export interface ClientTokenOptions {
  /** SDK_TOKEN_SECRET; a random per-process secret when unset (then tokens die with the process). */
  secret?: string;
  production: boolean;
}

/** A client token lives 30 minutes. */
export const CLIENT_TOKEN_TTL_MS = 30 * 60 * 1000;
const ISSUER = 'payments-gateway';
const AUDIENCE = 'sdk';
const TOKEN_USE = 'client_token';

/** What a verified client token says about its caller. */
export interface ClientTokenClaims {
  merchantCode: string;
  environment: Environment;
  /** Id of the private key that minted the token: revoking that key ends its client tokens too. */
  keyId: string;
  tokenId: string;
  checkout: Pick<SdkSessionRequest, 'country' | 'currency' | 'amount' | 'customerId' | 'checkoutConfigId'>;
  /**
   * A link-scoped token (minted by the hosted checkout for one payment link): it pays that link only, and no
   * private key stands behind it (`keyId` is `link:<id>`).
   */
  linkId?: string;
}

/** The link a link-scoped client token is minted for. */
export interface LinkTokenScope {
  linkId: string;
  merchantCode: string;
  environment: Environment;
}

/** Three base64url segments: a JWT, never an API key (keys have no dots). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * Client tokens for the browser SDK (docs/api.md, 3DS, client tokens and nonces): HS256 JWTs signed by the
 * gateway. A token names the merchant, environment and the private key that minted it (no public key record
 * is involved: the token itself is the browser's credential), and the checkout details it was minted for.
 */
@Injectable()
export class ClientTokens {
  private readonly secret: Uint8Array;

  constructor(
    @Inject(CLIENT_TOKEN_OPTIONS) options: ClientTokenOptions,
    private readonly clock: Clock,
    @Inject(LOGGER) logger: Logger,
  ) {
    if (options.secret) {
      this.secret = new TextEncoder().encode(options.secret);
    } else {
      this.secret = randomBytes(32);
      const log = options.production ? logger.warn.bind(logger) : logger.debug.bind(logger);
      log(
        'SDK_TOKEN_SECRET is unset: client tokens are signed with a per-process secret, so with several gateway replicas (or after a restart) they are refused; set SDK_TOKEN_SECRET',
      );
    }
  }

  /** The hosted checkout's token: the link id is the credential, so the token is bound to that link alone. */
  mintForLink(link: LinkTokenScope, requestId: string): Promise<SdkSessionResponse> {
    const caller = { requestId, merchantCode: link.merchantCode, environment: link.environment };
    return this.sign({ ...caller, keyId: `link:${link.linkId}` }, {}, link.linkId);
  }

  async mint(caller: CallerContext, request: SdkSessionRequest): Promise<SdkSessionResponse> {
    if (request.currency && request.amount && request.amount.currency !== request.currency) {
      throw DomainError.validation('amount.currency must equal currency', 'amount.currency');
    }
    return this.sign(caller, request);
  }

  private async sign(caller: CallerContext, request: SdkSessionRequest, linkId?: string): Promise<SdkSessionResponse> {
    const now = this.clock.now(caller);
    const expiresAt = new Date(now.getTime() + CLIENT_TOKEN_TTL_MS);
    const checkout = Object.fromEntries(
      Object.entries({
        country: request.country,
        currency: request.currency,
        amount: request.amount && {
          currency: request.amount.currency,
          value: request.amount.value,
          exponent: request.amount.exponent,
        },
        customerId: request.customerId,
        checkoutConfigId: request.checkoutConfigId,
      }).filter(([, v]) => v !== undefined),
    );
    const clientToken = await new SignJWT({
      use: TOKEN_USE,
      merchantCode: caller.merchantCode,
      environment: caller.environment,
      keyId: caller.keyId,
      checkout,
      ...(linkId ? { linkId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(caller.merchantCode)
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.secret);
    return { clientToken, expiresAt: expiresAt.toISOString() };
  }

  /** Cheap pre-check before any crypto: could this bearer credential be a client token at all? */
  static looksLikeClientToken(credential: string): boolean {
    return credential.length < 8192 && JWT_SHAPE.test(credential);
  }

  /** The claims of a well-formed, validly signed, unexpired client token; null for anything else. */
  async verify(credential: string): Promise<ClientTokenClaims | null> {
    if (!ClientTokens.looksLikeClientToken(credential)) return null;
    try {
      // Expiry is judged on the merchant's clock (a sandbox clock may be ahead of real time).
      const unverified = decodeJwt(credential);
      const scope = scopeOf(unverified);
      if (!scope) return null;
      const { payload } = await jwtVerify(credential, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: this.clock.now(scope),
        requiredClaims: ['exp', 'iat', 'jti'],
      });
      const verified = scopeOf(payload);
      if (!verified || payload.use !== TOKEN_USE || typeof payload.keyId !== 'string') return null;
      return {
        ...verified,
        keyId: payload.keyId,
        tokenId: String(payload.jti),
        checkout: (payload.checkout ?? {}) as ClientTokenClaims['checkout'],
        ...(typeof payload.linkId === 'string' ? { linkId: payload.linkId } : {}),
      };
    } catch {
      return null;
    }
  }

  async isClientToken(credential: string): Promise<boolean> {
    return (await this.verify(credential)) !== null;
  }
}

function scopeOf(payload: Record<string, unknown>): { merchantCode: string; environment: Environment } | null {
  const { merchantCode, environment } = payload;
  if (typeof merchantCode !== 'string' || !ENVIRONMENTS.includes(environment as Environment)) return null;
  return { merchantCode, environment: environment as Environment };
}
