import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `listen` keeps the signing secret it used, for `events resend --forward-to` to sign with the same one:
 * `$XDG_CONFIG_HOME/payments/listen-secret` (default `~/.config/payments/listen-secret`), readable by its owner
 * only. It is a local development secret the CLI made (or was given); no API key is ever written there.
 */
export function listenSecretFile(env: NodeJS.ProcessEnv): string {
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'payments', 'listen-secret');
}

/** Keeps `secret` for the next `events resend --forward-to`; a file that cannot be written is only a warning. */
export function rememberListenSecret(env: NodeJS.ProcessEnv, secret: string): string | undefined {
  const file = listenSecretFile(env);
  try {
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    return file;
  } catch {
    return undefined;
  }
}

/** The secret the last `listen` used, or undefined when none was kept. */
export function rememberedListenSecret(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const secret = readFileSync(listenSecretFile(env), 'utf8').trim();
    return secret || undefined;
  } catch {
    return undefined;
  }
}
