import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DomainError, validationFailed } from '@app/errors';
import { createLogger, PinoNestLogger } from '@app/observability';
import { CreateKeyRequest, CreateMerchantRequest } from './admin/admin.dto';
import { ApiKeysService } from './auth/api-keys.service';
import { MerchantsService } from './auth/merchants.service';
import { loadGatewayConfig } from './config';
import { AccountsModule } from './gateway.module';

const USAGE = `Usage: npm run ops -- <command>
  merchant:create <merchantCode> <name...>
  merchant:list
  key:create --merchant <code>[,<code>...] [--type private|public] [--env sandbox|production]
  key:list [--merchant <code>]
  key:revoke <keyId>
Uses GATEWAY_DATABASE_URL (and NATS_URL to tell running gateways about revocations) like the gateway.`;

type Out = (line: string) => void;

function flags(args: string[]): { positional: string[]; named: Record<string, string> } {
  const positional: string[] = [];
  const named: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--')) named[args[i].slice(2)] = args[++i] ?? '';
    else positional.push(args[i]);
  }
  return { positional, named };
}

/** The same DTO rules as the admin API. */
async function valid<T extends object>(type: new () => T, plain: object): Promise<T> {
  const instance = plainToInstance(type, plain);
  const errors = await validate(instance, { whitelist: true });
  if (errors.length) throw validationFailed(errors);
  return instance;
}

async function run(app: INestApplicationContext, argv: string[], out: Out): Promise<void> {
  const [command, ...rest] = argv;
  const { positional, named } = flags(rest);
  const merchants = app.get(MerchantsService);
  const keys = app.get(ApiKeysService);
  const print = (value: unknown) => out(JSON.stringify(value, null, 2));
  switch (command) {
    case 'merchant:create': {
      const body = await valid(CreateMerchantRequest, {
        merchantCode: positional[0],
        name: positional.slice(1).join(' '),
      });
      return print(await merchants.create(body.merchantCode, body.name));
    }
    case 'merchant:list':
      return print(await merchants.list());
    case 'key:create': {
      const body = await valid(CreateKeyRequest, {
        merchantCodes: (named.merchant ?? '').split(',').filter(Boolean),
        type: named.type ?? 'private',
        environment: named.env ?? 'sandbox',
      });
      return print(await keys.create(body.merchantCodes, body.type, body.environment));
    }
    case 'key:list':
      return print(await keys.list(named.merchant));
    case 'key:revoke':
      if (!positional[0]) throw DomainError.validation('key:revoke needs a key id', 'keyId');
      return print(await keys.revoke(positional[0]));
    default:
      throw DomainError.validation(USAGE);
  }
}

/** Runs one CLI command; returns the exit code. */
export async function runCli(
  argv: string[],
  env?: NodeJS.ProcessEnv,
  out: Out = console.log,
  err: Out = console.error,
): Promise<number> {
  if (!argv.length || argv[0] === 'help' || argv[0] === '--help') {
    out(USAGE);
    return argv.length ? 0 : 1;
  }
  const config = loadGatewayConfig(env);
  const logger = createLogger({ app: 'gateway-cli', level: 'warn', destination: process.stderr });
  const app = await NestFactory.createApplicationContext(AccountsModule.forRoot({ config, logger }), {
    logger: new PinoNestLogger(logger),
  });
  try {
    await run(app, argv, out);
    return 0;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    err(`${e.code}: ${e.message}`);
    return 2;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
