import { Audited } from '../audit/audited';
import { Body, Controller, Get, HttpCode, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BillingSubjects,
  CallerContext,
  MerchantQuery,
  RecoveryPolicyRequest,
  RecoveryPolicyView,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { BillingErrors, IDEMPOTENT } from './billing-errors';

/** The merchant's recovery policy: when declined renewals are retried (docs/api.md, Recovery policy). */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class RecoveryPolicyController {
  constructor(private readonly rpc: RpcClient) {}

  @Put('recovery-policy')
  @Audited('recovery_policy.replaced')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({
    summary: 'Set the recovery policy: retry days, rules by refusal reason, limits (a new version)',
    description:
      'Replaces the policy whole (an absent field takes its default) as its next version. A dunning run ' +
      'follows the version it started with: a change applies to runs that start after it.',
  })
  @ApiOkResponse({ type: RecoveryPolicyView })
  @BillingErrors(...IDEMPOTENT)
  put(@Body() body: RecoveryPolicyRequest, @IdempotentCaller() caller: CallerContext): Promise<RecoveryPolicyView> {
    return this.rpc.send<RecoveryPolicyView>(BillingSubjects.putRecoveryPolicy, caller, body);
  }

  @Get('recovery-policy')
  @RequirePermission('read')
  @ApiOperation({ summary: 'The current recovery policy (version 0: the default, never set)' })
  @ApiOkResponse({ type: RecoveryPolicyView })
  @BillingErrors()
  get(@Query() _query: MerchantQuery, @Caller() caller: CallerContext): Promise<RecoveryPolicyView> {
    return this.rpc.send<RecoveryPolicyView>(BillingSubjects.getRecoveryPolicy, caller, {});
  }
}
