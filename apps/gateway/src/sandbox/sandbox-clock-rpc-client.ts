import { Inject, Injectable } from '@nestjs/common';
import { CallerContext } from '@app/contracts';
import { NatsClient, RPC_TIMEOUT_MS, RpcClient } from '@app/messaging';
import { SandboxClockOffsets } from './sandbox-clock-offsets';

/**
 * The gateway's RpcClient: every command for a merchant's sandbox carries that merchant's clock offset
 * (`ctx.clockOffsetMs`), so the services' Clock reads the sandbox clock for it. Production commands and a
 * cached offset cost no extra await; a miss reads the offset once per merchant per cache TTL.
 */
@Injectable()
export class SandboxClockRpcClient extends RpcClient {
  constructor(
    nats: NatsClient,
    @Inject(RPC_TIMEOUT_MS) timeoutMs: number,
    private readonly offsets: SandboxClockOffsets,
  ) {
    super(nats, timeoutMs);
  }

  override send<TRes, TReq = unknown>(
    subject: string,
    ctx: CallerContext,
    body: TReq,
    timeoutMs?: number,
  ): Promise<TRes> {
    // Keyless commands have no merchant yet: the service finds the clock from the session it names.
    if (ctx.environment !== 'sandbox' || !ctx.merchantCode || ctx.clockOffsetMs !== undefined) {
      return super.send(subject, ctx, body, timeoutMs);
    }
    const cached = this.offsets.cached(ctx.merchantCode);
    if (cached !== undefined) return super.send(subject, withOffset(ctx, cached), body, timeoutMs);
    return this.offsets
      .offsetOf(ctx.merchantCode)
      .then((offset) => super.send<TRes, TReq>(subject, withOffset(ctx, offset), body, timeoutMs));
  }
}

const withOffset = (ctx: CallerContext, clockOffsetMs: number): CallerContext =>
  clockOffsetMs > 0 ? { ...ctx, clockOffsetMs } : ctx;
