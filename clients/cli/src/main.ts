#!/usr/bin/env node
import { parseArgs, ParseArgsConfig } from 'node:util';
import { PaymentsApiError } from '../../typescript/src';
import { cliEnv, CommandFailed, forwardTarget, UsageError } from './config';
import { listEvents, resendEvent } from './events';
import { listen } from './listen';
import { checkForwardingEnvironment, SECRET_ENV, signingSecret } from './safety';
import { rememberedListenSecret, rememberListenSecret } from './secret-file';
import { newSigningSecret } from '../../typescript/src/signature';
import { trigger, TRIGGERS } from './trigger';

const ENV_HELP = `Environment:
  PAYMENTS_API_KEY        a private key (prv_sandbox_…); required
  PAYMENTS_API_BASE       the gateway (default http://localhost:3000)
  PAYMENTS_MERCHANT_CODE  the merchant, when the key has several (or --merchant-code)
  ${SECRET_ENV} the secret listen and events resend sign forwarded events with (or --secret-file)`;

const HELP = {
  main: `Usage: payments <command> [options]

Commands:
  listen --forward-to <url>   forward your events, signed, to a local URL as they happen
  trigger <event type>        create sandbox objects that produce an event
  events list                 list recent events
  events resend <id>          send an event again

Run "payments <command> --help" for a command's options.
Exit codes: 0 done; 1 the API answered an error, or there was nothing to act on; 2 a usage error.

${ENV_HELP}`,
  listen: `Usage: payments listen --forward-to <url> [options]

Polls your event log and POSTs each new event to <url> as a webhook delivery carries it, signed with a
secret printed at start (Webhook-Signature and X-Therius-Signature), one line per event with the local answer.
Redirects are not followed. Nothing is registered on the server; Ctrl-C stops it. A production key is refused
unless --allow-production is given.

Options:
  --forward-to <url>      where to POST events, e.g. http://localhost:4242/webhooks (required)
  --events <a,b,…>        only these event types
  --secret-file <path>    sign with the secret in this file instead of a new one (or set ${SECRET_ENV}),
                          to keep your receiver's config across runs; --secret on the command line is refused
  --allow-production      forward the events of a production key (real payments and customers)
  --interval-ms <n>       how often to poll (default 1000)
  --merchant-code <code>  the merchant, when the key has several

The secret is also kept in $XDG_CONFIG_HOME/payments/listen-secret (default ~/.config/payments, owner-only),
so "payments events resend <id> --forward-to <url>" signs with it without ${SECRET_ENV} or --secret-file.

${ENV_HELP}`,
  trigger: `Usage: payments trigger <event type> [--merchant-code <code>]

Creates sandbox objects (test cards only; a sandbox key is required) that produce the event:
${Object.entries(TRIGGERS)
  .map(([type, t]) => `  ${type.padEnd(24)}${t.does}`)
  .join('\n')}

${ENV_HELP}`,
  events: `Usage: payments events list [--limit <n>] [--type <event type>] [--json]
       payments events resend <id> --webhook-endpoint <id>
       payments events resend <id> --forward-to <url> [--secret-file <path>] [--allow-production]

list      the newest events (default 20, at most 100), one line each, or the API's JSON with --json
resend    with --forward-to: the CLI POSTs the event to <url> (plain http:// is fine, e.g. a local receiver),
          signed as listen does, with the secret of --secret-file or ${SECRET_ENV}, or else the secret
          the last listen printed; a production key needs --allow-production;
          with --webhook-endpoint: the platform sends its delivery of the event to that registered (HTTPS)
          endpoint again

Exit codes: 0 done; 1 the API answered an error, or there was nothing to resend; 2 a usage error.

${ENV_HELP}`,
};

type Options = NonNullable<ParseArgsConfig['options']>;
const COMMON: Options = { help: { type: 'boolean', short: 'h' }, 'merchant-code': { type: 'string' } };

function parse(args: string[], options: Options) {
  try {
    return parseArgs({ args, options: { ...COMMON, ...options }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function positiveInt(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number`);
  return n;
}

async function run(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return out(HELP.main);
  if (command === 'listen') {
    const { values } = parse(rest, {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      secret: { type: 'string' },
      'secret-file': { type: 'string' },
      'allow-production': { type: 'boolean' },
      'interval-ms': { type: 'string' },
    });
    if (values.help) return out(HELP.listen);
    const given = signingSecret({ flag: str(values.secret), file: str(values['secret-file']) }, process.env);
    const forwardTo = forwardTarget(str(values['forward-to']));
    const env = cliEnv(process.env, str(values['merchant-code']));
    if (checkForwardingEnvironment(env, values['allow-production'] === true) === 'production') {
      err('Forwarding PRODUCTION events (--allow-production): real payments and customer data.');
    }
    const secret = given?.secret ?? newSigningSecret();
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    if (given) {
      out(`Signing with the secret from ${given.from}`);
    } else {
      out(`Your webhook signing secret is ${secret}`);
      // A secret the CLI made is kept for events resend; one you gave stays where you keep it.
      if (!rememberListenSecret(process.env, secret)) err('Could not keep the secret for events resend --forward-to');
    }
    await listen(env, {
      forwardTo,
      secret,
      intervalMs: positiveInt(values['interval-ms'], '--interval-ms', 1000),
      types: (str(values.events) ?? '').split(',').filter(Boolean),
      signal: stop.signal,
      print: out,
      warn: err,
    });
    return out('Stopped; nothing was registered on the server.');
  }
  if (command === 'trigger') {
    const { values, positionals } = parse(rest, {});
    if (values.help) return out(HELP.trigger);
    const env = cliEnv(process.env, str(values['merchant-code']));
    for (const line of await trigger(env, positionals[0])) out(line);
    return out(`Triggered ${positionals[0]}.`);
  }
  if (command === 'events') {
    const { values, positionals } = parse(rest, {
      limit: { type: 'string' },
      type: { type: 'string' },
      json: { type: 'boolean' },
      'webhook-endpoint': { type: 'string' },
      'forward-to': { type: 'string' },
      secret: { type: 'string' },
      'secret-file': { type: 'string' },
      'allow-production': { type: 'boolean' },
    });
    const [sub, id] = positionals;
    if (values.help || !sub) return out(HELP.events);
    const given = signingSecret({ flag: str(values.secret), file: str(values['secret-file']) }, process.env);
    const env = cliEnv(process.env, str(values['merchant-code']));
    if (values['forward-to'] !== undefined) checkForwardingEnvironment(env, values['allow-production'] === true);
    const lines =
      sub === 'list'
        ? await listEvents(env, {
            limit: positiveInt(values.limit, '--limit', 20),
            type: str(values.type),
            json: values.json === true,
          })
        : sub === 'resend'
          ? await resendEvent(env, id, {
              webhookEndpoint: str(values['webhook-endpoint']),
              forwardTo: values['forward-to'] === undefined ? undefined : forwardTarget(str(values['forward-to'])),
              secret: given?.secret ?? rememberedListenSecret(process.env),
            })
          : undefined;
    if (!lines) throw new UsageError(`Unknown events command: ${sub}`);
    for (const line of lines) out(line);
    return;
  }
  throw new UsageError(`Unknown command: ${command}`);
}

run(
  process.argv.slice(2),
  (line) => process.stdout.write(`${line}\n`),
  (line) => process.stderr.write(`${line}\n`),
).catch((e: unknown) => {
  if (e instanceof UsageError) {
    process.stderr.write(`${e.message}\nRun "payments --help" for usage.\n`);
    process.exitCode = 2;
  } else if (e instanceof PaymentsApiError) {
    process.stderr.write(`The API answered ${e.message}\n`);
    process.exitCode = 1;
  } else if (e instanceof CommandFailed) {
    process.stderr.write(`${e.message}\n`);
    process.exitCode = 1;
  } else {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exitCode = 1;
  }
});
