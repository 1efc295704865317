import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CallerContext, MerchantQuery, PingResponse, PingSubjects, ServiceName, ServiceNames } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ApiErrors } from '../http/api-errors';
import { RequirePermission } from '../auth/permission';

class PingQuery extends MerchantQuery {
  @ApiPropertyOptional({ enum: Object.values(ServiceNames), default: 'payments' })
  @IsOptional()
  @IsIn(Object.values(ServiceNames))
  service?: ServiceName;
}

@ApiTags('ping')
@Controller('v1/ping')
export class PingController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  @RequirePermission('read')
  @PrivateRoute()
  @ApiOperation({
    summary: 'Check a key and the path to a service',
    description:
      'Authenticated round trip gateway → NATS → service → back; answers who you are and which replica replied.',
  })
  @ApiOkResponse({ type: PingResponse })
  @ApiErrors({
    SERVICE_UNAVAILABLE: 'the service is not running, or the message broker is unreachable',
    UPSTREAM_TIMEOUT: 'the service did not answer within RPC_TIMEOUT_MS',
  })
  ping(@Query() query: PingQuery, @Caller() caller: CallerContext): Promise<PingResponse> {
    return this.rpc.send<PingResponse>(PingSubjects[query.service ?? 'payments'], caller, {});
  }
}
