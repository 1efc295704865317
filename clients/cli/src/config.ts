import { createPaymentsClient, PaymentsClient } from '../../typescript/src';

/** A usage error: the message is printed with the command's help hint and the exit code is 2. */
export class UsageError extends Error {}

/**
 * The command was well formed but what it names is not there (the API answered, with nothing to act on): the
 * message is printed alone and the exit code is 1, as for an error answer of the API.
 */
export class CommandFailed extends Error {}

export interface CliEnv {
  client: PaymentsClient;
  apiKey: string;
  baseUrl: string;
  /** Needed only when the key has several merchants. */
  merchantCode?: string;
}

export function cliEnv(env: NodeJS.ProcessEnv, merchantCode?: string): CliEnv {
  const apiKey = env.PAYMENTS_API_KEY;
  if (!apiKey) throw new UsageError('PAYMENTS_API_KEY is not set: export a private key (prv_sandbox_…)');
  const baseUrl = env.PAYMENTS_API_BASE || 'http://localhost:3000';
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError(`PAYMENTS_API_BASE must be an http(s) URL, not ${baseUrl}`);
  return {
    client: createPaymentsClient({ apiKey, baseUrl }),
    apiKey,
    baseUrl,
    merchantCode: merchantCode || env.PAYMENTS_MERCHANT_CODE || undefined,
  };
}

/** A `--forward-to` target: http(s) only, since it is called as a webhook receiver. */
export function forwardTarget(url: string | undefined): string {
  if (!url) throw new UsageError('--forward-to <url> is required, e.g. --forward-to http://localhost:4242/webhooks');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError('--forward-to must be an http:// or https:// URL');
  }
  return parsed.toString();
}
