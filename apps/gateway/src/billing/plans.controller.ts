import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  BillingSubjects,
  CallerContext,
  CreateMeterRequest,
  CreatePlanRequest,
  ListPlansQuery,
  MerchantQuery,
  MeterView,
  PageQuery,
  PlanListItem,
  PlanView,
  UpdatePlanRequest,
} from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { IdempotencyKeyHeader, IdempotentCaller } from '../auth/idempotent-caller.decorator';
import { BillingErrors, IDEMPOTENT, planIdOf } from './billing-errors';
import { RequirePermission } from '../auth/permission';

const NO_PLAN = { NOT_FOUND: 'no such plan for this merchant and environment' };

/** Plans and usage meters (docs/api.md, Subscriptions and billing), served by the billing service. */
@ApiTags('billing')
@Controller('v1/subscription')
@PrivateRoute()
export class PlansController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('plan')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Create a plan (intervalCount 1, isActive true and the currency’s exponent by default)' })
  @ApiCreatedResponse({ type: PlanView })
  @BillingErrors(...IDEMPOTENT, { NOT_FOUND: 'a meter code is unknown' }, 'INVALID_EXPONENT')
  create(@Body() body: CreatePlanRequest, @IdempotentCaller() caller: CallerContext): Promise<PlanView> {
    return this.rpc.send<PlanView>(BillingSubjects.createPlan, caller, body);
  }

  @Patch('plan/:id')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Change name, description, isActive or availableCountries (a full replacement)' })
  @ApiOkResponse({ type: PlanView })
  @BillingErrors(...IDEMPOTENT, NO_PLAN)
  update(
    @Param('id') id: string,
    @Body() body: UpdatePlanRequest,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PlanView> {
    return this.rpc.send<PlanView>(BillingSubjects.updatePlan, caller, { ...body, id: planIdOf(id) });
  }

  @Delete('plan/:id')
  @RequirePermission('manage')
  @HttpCode(200)
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Archive a plan: no new subscribers, existing subscriptions continue' })
  @ApiOkResponse({ type: PlanView })
  @BillingErrors(...IDEMPOTENT, NO_PLAN)
  archive(
    @Param('id') id: string,
    @Query() _query: MerchantQuery,
    @IdempotentCaller() caller: CallerContext,
  ): Promise<PlanView> {
    return this.rpc.send<PlanView>(BillingSubjects.archivePlan, caller, { id: planIdOf(id) });
  }

  @Get('plan/:id')
  @RequirePermission('read')
  @ApiOperation({ summary: 'A plan by id' })
  @ApiOkResponse({ type: PlanView })
  @BillingErrors(NO_PLAN)
  get(@Param('id') id: string, @Query() _query: MerchantQuery, @Caller() caller: CallerContext): Promise<PlanView> {
    return this.rpc.send<PlanView>(BillingSubjects.getPlan, caller, { id: planIdOf(id) });
  }

  @Get('plan')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Plans, newest first, with subscriberCount and archivedAt; archived plans included' })
  @ApiOkResponse({ type: [PlanListItem] })
  @BillingErrors()
  list(@Query() query: ListPlansQuery, @Caller() caller: CallerContext): Promise<PlanListItem[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<PlanListItem[]>(BillingSubjects.listPlans, caller, filters);
  }

  @Post('meter')
  @RequirePermission('manage')
  @IdempotencyKeyHeader()
  @ApiOperation({ summary: 'Define a usage meter: aggregation, included units and pricing scheme' })
  @ApiCreatedResponse({ type: MeterView })
  @BillingErrors(...IDEMPOTENT, 'DUPLICATE_METER_CODE')
  createMeter(@Body() body: CreateMeterRequest, @IdempotentCaller() caller: CallerContext): Promise<MeterView> {
    return this.rpc.send<MeterView>(BillingSubjects.createMeter, caller, body);
  }

  @Get('meter')
  @RequirePermission('read')
  @ApiOperation({ summary: 'Usage meters, newest first' })
  @ApiOkResponse({ type: [MeterView] })
  @BillingErrors()
  listMeters(@Query() query: PageQuery, @Caller() caller: CallerContext): Promise<MeterView[]> {
    const { merchantCode: _merchantCode, ...filters } = query;
    return this.rpc.send<MeterView[]>(BillingSubjects.listMeters, caller, filters);
  }
}
