import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The browser code the gateway serves (the SDK, the card-field frames, the hosted checkout's and the 3DS
 * page's scripts and styles), as `npm run build:browser` writes it to dist/browser from the sources in
 * clients/browser. Read once at start; a gateway without them refuses to start.
 */
export interface BrowserAsset {
  body: string;
  contentType: string;
  /** Subresource Integrity value of the body (sha384). */
  integrity: string;
}

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.d.ts': 'text/plain; charset=utf-8',
};

export function integrityOf(body: string): string {
  return `sha384-${createHash('sha384').update(body, 'utf8').digest('base64')}`;
}

/** dist/browser of the checkout or image this code runs from (the folder holding package.json). */
export function browserAssetsDir(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No package.json above ${from}: cannot find dist/browser`);
    dir = up;
  }
  return join(dir, 'dist', 'browser');
}

export class BrowserAssets {
  private readonly files = new Map<string, BrowserAsset>();

  constructor(dir = browserAssetsDir()) {
    if (!existsSync(join(dir, 'sdk.js'))) {
      throw new Error(`${join(dir, 'sdk.js')} is missing: run npm run build (it builds the browser code too)`);
    }
    for (const sub of ['', 'releases']) {
      const folder = join(dir, sub);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        const type = Object.keys(TYPES).find((ext) => name.endsWith(ext));
        if (!type) continue;
        const body = readFileSync(join(folder, name), 'utf8');
        const key = sub ? `${sub}/${name}` : name;
        this.files.set(key, { body, contentType: TYPES[type], integrity: integrityOf(body) });
      }
    }
  }

  /** A built file by its name under dist/browser ("sdk.js", "releases/sdk-v1.0.0.js"), if there is one. */
  get(name: string): BrowserAsset | undefined {
    return this.files.get(name);
  }

  /** A file the gateway cannot serve without: a missing one is a broken build, found at start. */
  require(name: string): BrowserAsset {
    const asset = this.files.get(name);
    if (!asset) throw new Error(`dist/browser/${name} is missing: run npm run build`);
    return asset;
  }
}
