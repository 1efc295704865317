import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { RATE_LIMITER } from '../auth/api-key.guard';
import { AuthFailures } from '../auth/auth-failures';
import { ApiKeysRepository } from '../auth/api-keys.repository';
import { ApiKeysService } from '../auth/api-keys.service';
import { KEY_PATTERN } from '../auth/principal';
import { RateLimiter } from '../auth/rate-limiter';
import { rateLimited } from '../http/rate-limited';
import { ClientTokenClaims, ClientTokens } from './client-tokens.service';

type SdkRequest = FastifyRequest & { clientToken?: ClientTokenClaims };

/**
 * The browser SDK routes take a client token only: 401 AUTH_MISSING without a credential,
 * 401 AUTH_INVALID for a bad, expired or orphaned token (its minting key revoked), 403
 * AUTH_INSUFFICIENT_SCOPE for a valid API key of either type.
 */
@Injectable()
export class ClientTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: ClientTokens,
    private readonly keys: ApiKeysService,
    private readonly keyRows: ApiKeysRepository,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    private readonly failures: AuthFailures,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SdkRequest>();
    const claims = await this.failures.check(request, () => this.authenticate(request));
    const over = this.limiter.take(claims.keyId, Date.now());
    if (over) throw rateLimited('Too many requests for this key', over);
    request.clientToken = claims;
    return true;
  }

  private async authenticate(request: SdkRequest): Promise<ClientTokenClaims> {
    const header = (request.headers.authorization ?? '').trim();
    if (!header || /^bearer$/i.test(header)) {
      throw new DomainError('AUTH_MISSING', 'Authorization header with a Bearer client token is required');
    }
    const match = /^bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new DomainError('AUTH_INVALID', 'Use the Bearer scheme with one client token');
    const credential = match[1];
    if (KEY_PATTERN.test(credential)) {
      await this.keys.authenticate(credential); // an unknown or revoked key stays 401
      throw new DomainError(
        'AUTH_INSUFFICIENT_SCOPE',
        'This browser SDK route takes a client token from POST /v1/sdk/session, not an API key',
      );
    }
    const claims = await this.tokens.verify(credential);
    // A link-scoped token has no minting key: the link it names is checked where it is used.
    if (!claims || (!claims.linkId && !(await this.mintingKeyActive(claims)))) {
      throw new DomainError('AUTH_INVALID', 'Invalid or expired client token');
    }
    return claims;
  }

  /** A token outlives neither its key's revocation nor the key leaving the merchant. */
  private async mintingKeyActive(claims: ClientTokenClaims): Promise<boolean> {
    return this.keyRows.activePrivateKeyOf(claims.keyId, claims.environment, claims.merchantCode);
  }
}

/** `@ClientCaller() ctx` on a `@ClientTokenRoute()`: the merchant and environment the token was minted for. */
export const ClientCaller = createParamDecorator((_: unknown, context: ExecutionContext): CallerContext => {
  const request = context.switchToHttp().getRequest<SdkRequest>();
  const claims = request.clientToken!;
  return {
    requestId: String(request.id),
    merchantCode: claims.merchantCode,
    environment: claims.environment,
    ...(claims.linkId ? {} : { keyId: claims.keyId }),
  };
});

/** `@ClientTokenLink() linkId` on a `@ClientTokenRoute()`: the link a link-scoped token was minted for. */
export const ClientTokenLink = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined =>
    context.switchToHttp().getRequest<SdkRequest>().clientToken?.linkId,
);

/**
 * After the ClientTokenGuard, on a route with a link `:id`: only a token minted for that very link passes
 * (a token of another link, or a merchant's general client token, is 403 AUTH_INSUFFICIENT_SCOPE).
 */
@Injectable()
export class LinkScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<SdkRequest & { params: Record<string, string> }>();
    if (!request.clientToken?.linkId || request.clientToken.linkId !== request.params.id) {
      throw new DomainError(
        'AUTH_INSUFFICIENT_SCOPE',
        'This client token was not issued for this payment link; reload the checkout page',
      );
    }
    return true;
  }
}

/** A route of one payment link's checkout: the client token the checkout page got for that link. */
export const LinkClientRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(ClientTokenRoute(), UseGuards(LinkScopeGuard));

/**
 * The header in which a card-field frame names the merchant it was opened for: the gateway served that frame
 * only to a page origin this merchant registered.
 */
export const FIELD_MERCHANT_HEADER = 'x-payments-field-merchant';

/**
 * After the ClientTokenGuard: a request naming a card-field frame's merchant passes only with a client token of
 * that merchant (else 403 AUTH_INSUFFICIENT_SCOPE). A script on a shop's page can hand the shop's frames any
 * token; this keeps the card typed into them from becoming a nonce of another merchant's account. The
 * gateway's own pages ask for nonces only through the frames, so a request the browser marks as coming from
 * this origin (`Sec-Fetch-Site: same-origin`, which no script can set) must name that merchant: a frame
 * cannot pass for the merchant's page by leaving the header out.
 */
@Injectable()
export class FieldMerchantGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<SdkRequest>();
    const named = request.headers[FIELD_MERCHANT_HEADER];
    if (named === undefined && request.headers['sec-fetch-site'] !== 'same-origin') return true;
    if (named !== undefined && named === request.clientToken?.merchantCode) return true;
    throw new DomainError(
      'AUTH_INSUFFICIENT_SCOPE',
      named === undefined
        ? `A nonce asked for from this gateway's own pages must name the card fields' merchant in ${FIELD_MERCHANT_HEADER}`
        : 'This client token is of another merchant than the one these card fields were opened for',
    );
  }
}

/** A browser SDK route the card-field frames call: a client token, of the frame's merchant when one is named. */
export const FieldFrameRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ClientTokenRoute(),
    UseGuards(FieldMerchantGuard),
    ApiHeader({
      name: FIELD_MERCHANT_HEADER,
      required: false,
      description:
        'Sent by the card-field frames: the merchant the frame was opened for. A client token of another merchant ' +
        'is refused (403 AUTH_INSUFFICIENT_SCOPE), and so is a request from the gateway’s own origin without it.',
    }),
  );

/** A browser SDK route: client token required. */
export const ClientTokenRoute = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseGuards(ClientTokenGuard),
    // Its error codes (401, 403, 429) follow from the security scheme: openapi-errors.ts.
    ApiBearerAuth('clientToken'),
  );
