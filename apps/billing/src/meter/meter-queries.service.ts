import { Injectable } from '@nestjs/common';
import { CallerContext, MeterView, PageQuery } from '@app/contracts';
import { DomainError } from '@app/errors';
import { isUuid, pageLimit } from '../scope';
import { MeterEntity } from './meter.entity';
import { MeterRepository } from './meter.repository';

export const toMeterView = (m: MeterEntity): MeterView => ({
  id: m.id,
  code: m.code,
  name: m.name,
  aggregation: m.aggregation,
  includedUnits: m.includedUnits,
  pricing: m.pricing as unknown as Record<string, unknown>,
  createdAt: m.createdAt.toISOString(),
});

/** Usage meters listed, a page at a time (their creation: create-meter use case). */
@Injectable()
export class MeterQueries {
  constructor(private readonly meters: MeterRepository) {}

  async list(ctx: CallerContext, query: PageQuery): Promise<MeterView[]> {
    if (query.startingAfter !== undefined && !isUuid(query.startingAfter)) {
      throw DomainError.validation('startingAfter must be a meter id', 'startingAfter');
    }
    const rows = await this.meters.list(ctx, { limit: pageLimit(query.limit), startingAfter: query.startingAfter });
    return rows.map(toMeterView);
  }
}
