import type { CallerContext } from '@app/contracts';

/** Every billing object belongs to one merchant and environment; other scopes get 404. */
export type Scope = Pick<CallerContext, 'merchantCode' | 'environment'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** A list page, as every list: newest first, `limit` 1–100 (default 20). */
export const pageLimit = (limit?: number): number => limit ?? 20;
