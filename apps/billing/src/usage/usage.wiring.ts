import { RecordUsageBatchUseCase } from './record-usage-batch.use-case';
import { RecordUsageUseCase } from './record-usage.use-case';
import { UsageRecorder } from './usage-recorder';
import { UsageEventEntity } from './usage-event.entity';
import { UsageHandler } from './usage.handler';
import { UsageRepository } from './usage.repository';

/** What billing.module.ts registers for metered usage ingestion. */
export const usageEntities = [UsageEventEntity];
export const usageHandlers = [UsageHandler];
export const usageProviders = [UsageRecorder, RecordUsageUseCase, RecordUsageBatchUseCase, UsageRepository];
