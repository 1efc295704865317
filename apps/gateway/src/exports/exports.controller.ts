import { Readable } from 'node:stream';
import { Controller, Get, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  BillingSubjects,
  CallerContext,
  EXPORT_COLUMNS,
  ExportBatch,
  ExportBatchCommand,
  ExportKind,
  ExportQuery,
  PaymentsSubjects,
} from '@app/contracts';
import { DomainError } from '@app/errors';
import { RpcClient } from '@app/messaging';
import { Caller, PrivateRoute } from '../auth/caller.decorator';
import { RequirePermission } from '../auth/permission';
import { ApiErrors } from '../http/api-errors';
import { forwardedTo } from '../http/upstream-timeout.doc';
import { csvLine } from './csv';

/** Rows asked of the service per batch: the most the gateway holds of an export at once. */
export const EXPORT_BATCH_SIZE = 500;

const SUBJECTS: Readonly<Record<ExportKind, string>> = {
  payments: PaymentsSubjects.exportPayments,
  refunds: PaymentsSubjects.exportRefunds,
  invoices: BillingSubjects.exportInvoices,
};
const KINDS = Object.keys(SUBJECTS) as ExportKind[];

/** The finance exports: CSV of a date range, streamed one batch at a time. */
@ApiTags('exports')
@Controller('v1/export')
export class ExportsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get(':kind')
  @RequirePermission('read')
  @PrivateRoute()
  @ApiParam({ name: 'kind', enum: KINDS })
  @ApiOperation({
    summary: 'Payments, refunds or invoices created in a date range, as CSV',
    description:
      'Oldest first, with a header line; amounts in minor units next to their currency and exponent. The file ' +
      'is streamed in batches of 500 rows, so a range of any length can be exported; rows created while it ' +
      'streams are either in it or not, never twice. Columns — payments: ' +
      `${EXPORT_COLUMNS.payments.join(', ')}; refunds: ${EXPORT_COLUMNS.refunds.join(', ')}; invoices: ` +
      `${EXPORT_COLUMNS.invoices.join(', ')}.`,
  })
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The CSV file', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiErrors(forwardedTo('payments or billing'), {
    NOT_FOUND: '`kind` is not payments, refunds or invoices',
    VALIDATION_FAILED: '`createdFrom` or `createdTo` missing or not an ISO 8601 instant, or not before `createdTo`',
  })
  async export(
    @Param('kind') kind: string,
    @Query() query: ExportQuery,
    @Caller() caller: CallerContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StreamableFile> {
    if (!isKind(kind)) throw DomainError.notFound('export', 'kind');
    if (Date.parse(query.createdFrom) >= Date.parse(query.createdTo)) {
      throw DomainError.validation('createdFrom must be before createdTo', 'createdFrom');
    }
    const range = { createdFrom: query.createdFrom, createdTo: query.createdTo };
    // The first batch before the answer starts: a refusal is still a 4xx in the error envelope.
    const first = await this.batch(kind, caller, { ...range, limit: EXPORT_BATCH_SIZE });
    reply.header('cache-control', 'no-store');
    const name = `${kind}-${query.createdFrom.slice(0, 10)}-${query.createdTo.slice(0, 10)}.csv`;
    // One batch ahead at most: the next is asked for only as the client reads (the socket drains).
    return new StreamableFile(Readable.from(this.lines(kind, caller, range, first), { highWaterMark: 1 }), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${name}"`,
    });
  }

  private async *lines(
    kind: ExportKind,
    caller: CallerContext,
    range: Pick<ExportBatchCommand, 'createdFrom' | 'createdTo'>,
    first: ExportBatch,
  ): AsyncGenerator<string> {
    let batch = first;
    yield csvLine(EXPORT_COLUMNS[kind]) + batch.rows.map(csvLine).join('');
    while (batch.next) {
      batch = await this.batch(kind, caller, { ...range, after: batch.next, limit: EXPORT_BATCH_SIZE });
      if (batch.rows.length) yield batch.rows.map(csvLine).join('');
    }
  }

  private batch(kind: ExportKind, caller: CallerContext, command: ExportBatchCommand): Promise<ExportBatch> {
    return this.rpc.send<ExportBatch, ExportBatchCommand>(SUBJECTS[kind], caller, command);
  }
}

const isKind = (value: string): value is ExportKind => (KINDS as string[]).includes(value);
