import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The dashboard is served by the gateway under /dashboard (apps/gateway/src/dashboard/spa.controller.ts) from
// dist/dashboard; scripts/build-dashboard.js runs this build (part of `npm run build` and the tests' setup).
export default defineConfig({
  root,
  base: '/dashboard/',
  build: {
    outDir: fileURLToPath(new URL('../../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // No inline script or style: the page's CSP allows only files of its own origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      // TanStack Query marks its hooks "use client" for server-rendering bundlers; this app renders in the browser only.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
