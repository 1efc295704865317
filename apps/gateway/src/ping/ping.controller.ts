import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiPropertyOptional,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CallerContext, MerchantQuery, PingResponse, PingSubjects, ServiceName, ServiceNames } from '@app/contracts';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { ErrorEnvelope } from '../http/error-envelope.dto';

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
  @PrivateRoute()
  @ApiOperation({
    summary: 'Check a key and the path to a service',
    description:
      'Authenticated round trip gateway → NATS → service → back; answers who you are and which replica replied.',
  })
  @ApiOkResponse({ type: PingResponse })
  @ApiServiceUnavailableResponse({
    description: 'The service is not running (SERVICE_UNAVAILABLE)',
    type: ErrorEnvelope,
  })
  ping(@Query() query: PingQuery, @Caller() caller: CallerContext): Promise<PingResponse> {
    return this.rpc.send<PingResponse>(PingSubjects[query.service ?? 'payments'], caller, {});
  }
}
