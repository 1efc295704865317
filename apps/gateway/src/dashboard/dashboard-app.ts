import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserAssetsDir } from '../sdk/browser-assets';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface DashboardFile {
  body: Buffer;
  contentType: string;
}

/**
 * The merchant dashboard as `npm run build:dashboard` writes it (dist/dashboard: index.html and hashed files in
 * assets/), read once at start. A gateway started without the build serves a page that says so, not the API's 404.
 */
export class DashboardApp {
  readonly index?: string;
  private readonly assets = new Map<string, DashboardFile>();

  constructor(dir = join(browserAssetsDir(), '..', 'dashboard')) {
    if (!existsSync(join(dir, 'index.html'))) return;
    this.index = readFileSync(join(dir, 'index.html'), 'utf8');
    const assets = join(dir, 'assets');
    for (const name of existsSync(assets) ? readdirSync(assets) : []) {
      const type = Object.keys(TYPES).find((ext) => name.endsWith(ext));
      if (type) this.assets.set(name, { body: readFileSync(join(assets, name)), contentType: TYPES[type] });
    }
  }

  /** A built file of assets/ by its (hashed) name, if there is one. */
  asset(name: string): DashboardFile | undefined {
    return this.assets.get(name);
  }
}
