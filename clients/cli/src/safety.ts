import { readFileSync } from 'node:fs';
import { CliEnv, UsageError } from './config';

/** Where the signing secret of forwarded events may come from: never the command line. */
export const SECRET_ENV = 'PAYMENTS_WEBHOOK_SECRET';

export const SECRET_FLAG_REMOVED =
  '--secret is no longer accepted: a command line is visible to every user of the machine (ps) and kept in ' +
  `shell history. Put the secret in the ${SECRET_ENV} environment variable, or in a file readable only by you ` +
  'and pass --secret-file <path>.';

/**
 * The signing secret for forwarded events: from `--secret-file <path>` (the file's content, trimmed) or the
 * PAYMENTS_WEBHOOK_SECRET variable; undefined when neither is set. `--secret <value>` is a usage error that says
 * how to pass it instead.
 */
export function signingSecret(
  o: { flag?: string; file?: string },
  env: NodeJS.ProcessEnv,
): { secret: string; from: string } | undefined {
  if (o.flag !== undefined) throw new UsageError(SECRET_FLAG_REMOVED);
  if (o.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(o.file, 'utf8');
    } catch (e) {
      throw new UsageError(`--secret-file: cannot read ${o.file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    const secret = text.trim();
    if (!secret) throw new UsageError(`--secret-file: ${o.file} is empty`);
    return { secret, from: o.file };
  }
  const value = env[SECRET_ENV]?.trim();
  return value ? { secret: value, from: SECRET_ENV } : undefined;
}

/**
 * Forwarding sends events, with the payments and customers in them, to whatever the local URL is: only sandbox
 * keys do so unless `--allow-production` says production events are meant. A key that does not say sandbox
 * counts as production.
 */
export function checkForwardingEnvironment(env: CliEnv, allowProduction: boolean): 'sandbox' | 'production' {
  if (env.apiKey.startsWith('prv_sandbox_')) return 'sandbox';
  if (!allowProduction) {
    throw new UsageError(
      'PAYMENTS_API_KEY is a production key: forwarding would send real payments and customer data to the local ' +
        'URL. Use a sandbox key (prv_sandbox_…), or pass --allow-production if you mean to forward production events.',
    );
  }
  return 'production';
}
