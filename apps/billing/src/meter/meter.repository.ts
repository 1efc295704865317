import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { entityInsert, entitySelect, runStatement, statement, uniqueViolation } from '@app/database';
import { DomainError } from '@app/errors';
import { Scope } from '../scope';
import { MeterEntity } from './meter.entity';

const insertMeter = entityInsert(MeterEntity, 'meters_insert');
/** $3: the last id of the previous page, or null. */
const page = entitySelect(
  MeterEntity,
  'meters_page',
  'merchant_code = $1 AND environment = $2 AND ($3::uuid IS NULL OR id < $3) ORDER BY id DESC LIMIT $4',
);
const CODES = statement(
  'meters_codes',
  'SELECT code FROM meters WHERE merchant_code = $1 AND environment = $2 AND code = ANY($3)',
);

@Injectable()
export class MeterRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A code taken in the scope is 409 (inside a transaction, when it commits). */
  insert(meter: MeterEntity, manager: EntityManager = this.db.manager): Promise<void> {
    return insertMeter(manager, meter, (e) =>
      uniqueViolation(e) ? new DomainError('DUPLICATE_METER_CODE', `Meter ${meter.code} already exists`, 'code') : e,
    );
  }

  list(scope: Scope, o: { limit: number; startingAfter?: string }): Promise<MeterEntity[]> {
    return page(this.db, [scope.merchantCode, scope.environment, o.startingAfter || null, o.limit]);
  }

  /** The first of `codes` that is not a meter of this scope, or undefined. */
  async missingCodes(
    scope: Scope,
    codes: string[],
    manager: EntityManager = this.db.manager,
  ): Promise<string | undefined> {
    if (!codes.length) return undefined;
    const found = await runStatement<{ code: string }>(manager, CODES, [scope.merchantCode, scope.environment, codes]);
    return codes.find((c) => !found.some((m) => m.code === c));
  }
}
