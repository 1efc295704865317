import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { TextLimits } from './text-limits';
import { MerchantCodeField } from './merchant-code';

/** POST /v1/sandbox/clock/advance: exactly one of `to` and `by`, else 400. */
@TextLimits()
export class AdvanceClockRequest {
  @ApiPropertyOptional({
    description: 'The time to move the clock to (RFC 3339 with a time zone); not earlier than the clock',
    example: '2026-03-01T00:00:00.000Z',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  to?: string;

  @ApiPropertyOptional({
    description: 'How far to move the clock: an ISO 8601 duration, calendar arithmetic in UTC',
    example: 'P1M',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  by?: string;

  @MerchantCodeField() merchantCode?: string;
}

export class SandboxClockResponse {
  @ApiProperty({ description: 'The merchant’s sandbox clock (RFC 3339 UTC)', example: '2026-03-01T00:00:00.000Z' })
  now: string;
}

/** Milliseconds from year 0 to 9999: no offset of a sandbox clock is larger. */
const MAX_OFFSET_MS = 253_402_300_800_000;

/** What the gateway tells a service when a merchant's sandbox clock moves (ctx: that merchant, sandbox). */
export class ClockAdvancedCommand {
  /** The new time: the service runs every piece of its work due up to it, in time order. */
  @IsISO8601({ strict: true, strictSeparator: true })
  to: string;

  /** The new offset of the merchant's clock from real time, for the service's keyless paths. */
  @IsInt()
  @Min(0)
  @Max(MAX_OFFSET_MS)
  offsetMs: number;

  /** The most pieces of due work the service runs for this advance (SANDBOX_MAX_ADVANCE_WORK). */
  @IsOptional()
  @IsInt()
  @Min(1)
  maxWork?: number;

  /**
   * How much longer the gateway waits for the answer, in ms: the service stops that long after it received
   * the command (on its own clock, so the hosts' clocks need not agree).
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  waitMs?: number;
}

export interface ClockAdvancedResult {
  /** How many pieces of due work ran. */
  ran: number;
  /** True when maxWork or waitMs stopped the service with work still due: the clock must not move. */
  unfinished?: boolean;
  /**
   * True when another advance of the merchant's clock held the service's due work until waitMs ran out:
   * nothing ran for this one, and the clock must not move.
   */
  busy?: boolean;
}
