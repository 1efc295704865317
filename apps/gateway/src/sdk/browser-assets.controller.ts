import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DomainError } from '@app/errors';
import { exactOrigin } from '../auth/allowed-origins';
import { MerchantsService } from '../auth/merchants.service';
import { CHECKOUT_PAGE_OPTIONS, CheckoutPageOptions, assetHeaders } from '../hosted/page-headers';
import { ApiErrors } from '../http/api-errors';
import { BrowserAsset, BrowserAssets } from './browser-assets';
import { FIELD_TYPES, FieldType, fieldFrameHeaders, fieldFramePage } from './field-frame';

/** What a card-field frame page loads, by the name its page uses. */
const FIELD_ASSETS = new Set(['field.js', 'field.css', 'card-rules.js', 'field-style.js']);
const VERSION = /^v\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The browser code: the SDK (latest and pinned versions, with its TypeScript declarations), the card-field
 * frames, and the scripts and styles of the hosted checkout and 3DS pages. No credential; docs/card-fields.md.
 */
@ApiTags('sdk')
@Controller()
export class BrowserAssetsController {
  private readonly gatewayOrigin: string;

  constructor(
    private readonly assets: BrowserAssets,
    private readonly merchants: MerchantsService,
    @Inject(CHECKOUT_PAGE_OPTIONS) options: CheckoutPageOptions,
  ) {
    this.gatewayOrigin = new URL(options.publicBaseUrl).origin;
    for (const name of [
      'sdk.js',
      'payments-sdk.d.ts',
      'checkout.js',
      'card-update.js',
      'checkout.css',
      'challenge.js',
      ...FIELD_ASSETS,
    ]) {
      assets.require(name);
    }
  }

  @Get('v1/sdk/js')
  @ApiOperation({
    summary: 'The browser SDK, latest version (JavaScript, no credential, cacheable for 5 minutes)',
    description:
      '`PaymentsSDK.init({clientToken})` → `fields()` mounts card fields hosted in frames of this gateway and ' +
      'makes a nonce inside them; `createNonce(card)` posts a card the page collected; `handleAction(actionRequired)` ' +
      'runs a 3DS challenge in a framed dialog and resumes. Pin a version with /v1/sdk/{version}/sdk.js.',
  })
  @ApiProduces('application/javascript')
  @ApiOkResponse({ description: 'The SDK script' })
  sdk(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('sdk.js'));
  }

  @Get('v1/sdk/sdk.d.ts')
  @ApiOperation({ summary: 'TypeScript declarations of the latest SDK’s public API' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'A global declaration file (`PaymentsSDK`)' })
  declarations(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('payments-sdk.d.ts'));
  }

  @Get('v1/sdk/:version/sdk.js')
  @ApiOperation({
    summary: 'One released version of the SDK, e.g. /v1/sdk/v1.0.0/sdk.js: its content never changes',
    description: 'Cacheable for a year; pin it with the Subresource Integrity hash published in docs/card-fields.md.',
  })
  @ApiProduces('application/javascript')
  @ApiOkResponse({ description: 'The SDK script of that version' })
  @ApiErrors({ NOT_FOUND: 'no released SDK has this version' })
  versioned(@Param('version') version: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.release(version, 'js'), IMMUTABLE);
  }

  @Get('v1/sdk/:version/sdk.d.ts')
  @ApiOperation({ summary: 'TypeScript declarations of one released SDK version' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'A global declaration file (`PaymentsSDK`)' })
  @ApiErrors({ NOT_FOUND: 'no released SDK has this version' })
  versionedDeclarations(@Param('version') version: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.release(version, 'd.ts'), IMMUTABLE);
  }

  @Get('v1/sdk/fields/frame')
  @ApiOperation({
    summary: 'One card field’s frame page (HTML; the SDK mounts it)',
    description:
      'Loads only inside a page of `origin`, which must be one of the merchant’s allowed origins (admin API) or ' +
      'this gateway: its Content-Security-Policy names that origin alone in `frame-ancestors`.',
  })
  @ApiQuery({ name: 'field', enum: FIELD_TYPES })
  @ApiQuery({ name: 'merchant', description: 'Merchant code (the client token names it)' })
  @ApiQuery({ name: 'origin', description: 'Origin of the page that embeds the field' })
  @ApiQuery({ name: 'channel', description: 'Id the frames of one mount share (hex)' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The field page' })
  @ApiErrors({
    VALIDATION_FAILED: 'a missing or malformed parameter',
    AUTH_INSUFFICIENT_SCOPE: 'the origin is not allowed to embed this merchant’s card fields',
  })
  async frame(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    // Whatever the answer, a refusal is never shown in a frame.
    void reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
    const field = FIELD_TYPES.find((f) => f === query.field) as FieldType | undefined;
    if (!field) throw DomainError.validation(`field must be one of ${FIELD_TYPES.join(', ')}`, 'field');
    const origin = exactOrigin(query.origin);
    if (!origin) throw DomainError.validation('origin must be a web origin (scheme, host and port)', 'origin');
    const channel = typeof query.channel === 'string' && /^[0-9a-f]{16,64}$/.test(query.channel) ? query.channel : '';
    if (!channel) throw DomainError.validation('channel must be 16 to 64 hex digits', 'channel');
    const merchant = query.merchant;
    if (typeof merchant !== 'string' || !(await this.allowed(merchant, origin))) {
      throw new DomainError(
        'AUTH_INSUFFICIENT_SCOPE',
        'This page’s origin is not registered to show this merchant’s card fields (docs/card-fields.md)',
        'origin',
      );
    }
    fieldFrameHeaders(reply, origin);
    return fieldFramePage({ field, origin, channel, merchant });
  }

  @Get('v1/sdk/fields/:asset')
  @ApiOperation({ summary: 'A card-field frame’s script or stylesheet' })
  @ApiOkResponse({ description: 'The script (a module) or stylesheet' })
  @ApiErrors({ NOT_FOUND: 'no frame asset has this name' })
  fieldAsset(@Param('asset') asset: string, @Res({ passthrough: true }) reply: FastifyReply): string {
    if (!FIELD_ASSETS.has(asset)) throw DomainError.notFound('asset', 'asset');
    return this.send(reply, this.assets.require(asset));
  }

  @Get('checkout/assets/checkout.js')
  @ApiOperation({ summary: 'The checkout page’s script' })
  checkoutScript(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('checkout.js'));
  }

  @Get('checkout/assets/card-update.js')
  @ApiOperation({ summary: 'The card-update page’s script' })
  cardUpdateScript(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('card-update.js'));
  }

  @Get('checkout/assets/checkout.css')
  @ApiOperation({ summary: 'The checkout page’s stylesheet' })
  checkoutStyle(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('checkout.css'));
  }

  @Get('v1/3ds/assets/challenge.js')
  @ApiOperation({ summary: 'The 3DS challenge page’s script' })
  challengeScript(@Res({ passthrough: true }) reply: FastifyReply): string {
    return this.send(reply, this.assets.require('challenge.js'));
  }

  private release(version: string, kind: 'js' | 'd.ts'): BrowserAsset {
    const asset = VERSION.test(version) ? this.assets.get(`releases/sdk-${version}.${kind}`) : undefined;
    if (!asset) throw new DomainError('NOT_FOUND', `No SDK version ${version}`, 'version');
    return asset;
  }

  private send(reply: FastifyReply, asset: BrowserAsset, cacheControl?: string): string {
    assetHeaders(reply, asset.contentType);
    if (cacheControl) void reply.header('cache-control', cacheControl);
    return asset.body;
  }

  /** The gateway's own pages (the hosted checkout) and the merchant's registered origins. */
  private async allowed(merchant: string, origin: string): Promise<boolean> {
    if (origin === this.gatewayOrigin) return true;
    try {
      return (await this.merchants.allowedOrigins(merchant)).includes(origin);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'NOT_FOUND') return false;
      throw e;
    }
  }
}
