import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request state that must reach code far from the request object: the logger and the validation pipe. */
export interface RequestStore {
  requestId: string;
  ignoredFields?: string[];
}

export const requestContext = new AsyncLocalStorage<RequestStore>();

export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;
