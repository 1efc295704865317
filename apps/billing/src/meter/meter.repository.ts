import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { uniqueViolation } from '@app/database';
import { DomainError } from '@app/errors';
import { Scope } from '../scope';
import { MeterEntity } from './meter.entity';

@Injectable()
export class MeterRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(meter: MeterEntity, manager: EntityManager = this.db.manager): Promise<void> {
    try {
      await manager.insert(MeterEntity, meter);
    } catch (e) {
      if (uniqueViolation(e))
        throw new DomainError('DUPLICATE_METER_CODE', `Meter ${meter.code} already exists`, 'code');
      throw e;
    }
  }

  list(scope: Scope, o: { limit: number; startingAfter?: string }): Promise<MeterEntity[]> {
    const qb = this.db
      .getRepository(MeterEntity)
      .createQueryBuilder('m')
      .where('m.merchant_code = :mc AND m.environment = :env', { mc: scope.merchantCode, env: scope.environment })
      .orderBy('m.id', 'DESC')
      .limit(o.limit);
    if (o.startingAfter) qb.andWhere('m.id < :after', { after: o.startingAfter });
    return qb.getMany();
  }

  /** The first of `codes` that is not a meter of this scope, or undefined. */
  async missingCodes(
    scope: Scope,
    codes: string[],
    manager: EntityManager = this.db.manager,
  ): Promise<string | undefined> {
    if (!codes.length) return undefined;
    const found = await manager.find(MeterEntity, {
      select: { code: true },
      where: { merchantCode: scope.merchantCode, environment: scope.environment, code: In(codes) },
    });
    return codes.find((c) => !found.some((m) => m.code === c));
  }
}
