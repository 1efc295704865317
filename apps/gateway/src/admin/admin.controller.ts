import { Audited } from '../audit/audited';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError } from '@app/errors';
import { ApiKeysService, CreatedKey, KeyView } from '../auth/api-keys.service';
import { MerchantsService } from '../auth/merchants.service';
import { AdminGuard } from './admin.guard';
import {
  AllowedOriginsRequest,
  AllowedOriginsResponse,
  CreatedKeyResponse,
  CreateKeyRequest,
  CreateMerchantRequest,
  KeyResponse,
  ListKeysQuery,
  MerchantResponse,
} from './admin.dto';
import { ApiErrors } from '../http/api-errors';
import { GatewayIdempotency, IdempotencyKey, ADMIN_KEY_SCOPE } from '../idempotency/gateway-idempotency';
import { IdempotencyKeyHeader } from '../auth/idempotent-caller.decorator';

/** A created key's answer as a replay shows it: the key itself is in the first answer only (it is stored hashed). */
const withoutKey = ({ key: _shownOnce, ...rest }: CreatedKey): CreatedKey => rest as CreatedKey;

/** Operators' API, on the internal port with ADMIN_TOKEN (docs/api.md): merchants and their keys. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@UseGuards(AdminGuard)
@Controller('v1/admin')
export class AdminController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly keys: ApiKeysService,
    private readonly idempotency: GatewayIdempotency,
  ) {}

  @Post('merchants')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @ApiOperation({ summary: 'Create a merchant account' })
  @ApiCreatedResponse({ type: MerchantResponse })
  @ApiErrors('DUPLICATE_MERCHANT_CODE')
  createMerchant(
    @Body() body: CreateMerchantRequest,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<MerchantResponse> {
    const create = () => this.newMerchant(body);
    return this.idempotency.run({ ...ADMIN_KEY_SCOPE, idempotencyKey }, 'merchant.create', body, create);
  }

  private async newMerchant(body: CreateMerchantRequest): Promise<MerchantResponse> {
    const m = await this.merchants.create(body.merchantCode, body.name);
    return {
      id: m.id,
      merchantId: m.merchantId,
      merchantCode: m.merchantCode,
      name: m.name,
      createdAt: new Date(m.createdAt).toISOString(),
    };
  }

  @Get('merchants')
  @ApiOperation({ summary: 'List merchant accounts, newest first' })
  @ApiOkResponse({ type: [MerchantResponse] })
  async listMerchants(): Promise<MerchantResponse[]> {
    return (await this.merchants.list()).map((m) => ({
      id: m.id,
      merchantId: m.merchantId,
      merchantCode: m.merchantCode,
      name: m.name,
      createdAt: m.createdAt.toISOString(),
    }));
  }

  @Get('merchants/:merchantCode/allowed-origins')
  @ApiOperation({ summary: 'The web origins allowed to embed the merchant’s card fields' })
  @ApiOkResponse({ type: AllowedOriginsResponse })
  @ApiErrors({ NOT_FOUND: 'no merchant with this code' })
  async allowedOrigins(@Param('merchantCode') merchantCode: string): Promise<AllowedOriginsResponse> {
    return { merchantCode, allowedOrigins: await this.merchants.allowedOrigins(merchantCode) };
  }

  @Put('merchants/:merchantCode/allowed-origins')
  @Audited('allowed_origins.replaced')
  @ApiOperation({
    summary: 'Set the web origins allowed to embed the merchant’s card fields (docs/card-fields.md)',
    description: 'Replaces the list. A card-field frame loads only inside a page of one of these origins.',
  })
  @ApiOkResponse({ type: AllowedOriginsResponse })
  @ApiErrors({ VALIDATION_FAILED: 'an entry is not an exact origin', NOT_FOUND: 'no merchant with this code' })
  async setAllowedOrigins(
    @Param('merchantCode') merchantCode: string,
    @Body() body: AllowedOriginsRequest,
  ): Promise<AllowedOriginsResponse> {
    return { merchantCode, allowedOrigins: await this.merchants.setAllowedOrigins(merchantCode, body.allowedOrigins) };
  }

  @Post('keys')
  @Audited('api_key.created')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @ApiOperation({
    summary: 'Create an API key for one or more merchants; the key is shown only in this answer',
    description:
      'A retry with the same Idempotency-Key answers the same key record without `key`: the key is stored hashed ' +
      'only. If the first answer was lost, revoke that key and create another.',
  })
  @ApiCreatedResponse({ type: CreatedKeyResponse })
  @ApiErrors({ NOT_FOUND: 'a merchant code is unknown' })
  createKey(@Body() body: CreateKeyRequest, @IdempotencyKey() idempotencyKey?: string): Promise<CreatedKey> {
    const create = () => this.keys.create(body.merchantCodes, body.type, body.environment);
    // The key is shown once: the Idempotency-Key's row keeps the answer without it, in no form.
    return this.idempotency.run({ ...ADMIN_KEY_SCOPE, idempotencyKey }, 'key.create', body, create, {
      shownOnce: withoutKey,
    });
  }

  @Get('keys')
  @ApiOperation({ summary: 'List keys (hints only, never the keys)' })
  @ApiOkResponse({ type: [KeyResponse] })
  listKeys(@Query() query: ListKeysQuery): Promise<KeyView[]> {
    return this.keys.list(query.merchantCode);
  }

  @Delete('keys/:id')
  @Audited('api_key.revoked')
  @IdempotencyKeyHeader()
  @ApiErrors('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a key: it answers 401 AUTH_INVALID from then on (within 5 s on every replica)' })
  @ApiOkResponse({ type: KeyResponse })
  @ApiErrors({ NOT_FOUND: 'no such key (or not a uuid)' })
  revokeKey(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => DomainError.notFound('key', 'id') })) id: string,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<KeyView> {
    return this.idempotency.run({ ...ADMIN_KEY_SCOPE, idempotencyKey }, 'key.revoke', { id }, () =>
      this.keys.revoke(id),
    );
  }
}
