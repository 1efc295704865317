'use strict';

/**
 * Purchases through a real connector: the Adyen connector of the payments service calling the Adyen double
 * (test/support/connectors/adyen/) as its own process, answering after 200 ms. Judged against the sandbox
 * acquirer with the same 200 ms (`purchase-acquirer-200ms`) of the same run: run both, e.g.
 * `npm run bench -- --scenarios=purchase-acquirer-200ms,purchase-adyen-200ms`.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const PROVIDER_LATENCY_MS = 200;
const CONNECTIONS = 256;
const PURCHASE_PATH = '/v1/payment/purchase';
/** The connection's environment: production (default), or sandbox to read the production path's own cost. */
const ENVIRONMENT = process.env.BENCH_ADYEN_ENVIRONMENT === 'sandbox' ? 'sandbox' : 'production';

/** Purchases with a production key: a fresh orderCode and Idempotency-Key each (production requires one). */
function productionPurchases(merchantCode, key) {
  const { purchaseBody } = require('./scenarios');
  const prefix = `bench-adyen-${Date.now().toString(36)}-${crypto.randomBytes(2).toString('hex')}-`;
  let n = 0;
  return [
    {
      method: 'POST',
      path: PURCHASE_PATH,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      setupRequest(request) {
        const orderCode = `${prefix}${++n}`;
        request.headers = { ...request.headers, 'idempotency-key': orderCode };
        request.body = JSON.stringify(purchaseBody(merchantCode, orderCode));
        return request;
      },
    },
  ];
}

module.exports = [
  {
    id: 'purchase-adyen-200ms',
    name: 'card purchase through the Adyen connector and double, provider answering in 200 ms (max rate)',
    stack: true,
    connections: CONNECTIONS,
    target: {
      minShareOf: { id: 'purchase-acquirer-200ms', share: 0.7 },
      label: '>= 70% of the 200 ms sandbox acquirer',
    },
    async setup(ctx) {
      const { probePurchase } = require('./scenarios');
      const probe = await ctx.memo('purchase-probe', () => probePurchase(ctx.stack));
      if (probe.skip) return { skip: probe.skip };
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-adyen-info-'));
      const infoFile = path.join(dir, 'connection.json');
      const double = await ctx.startServer('adyen-double', path.join(__dirname, 'servers', 'adyen-double.js'), {
        BENCH_PROVIDER_LATENCY_MS: String(PROVIDER_LATENCY_MS),
        BENCH_DOUBLE_INFO: infoFile,
      });
      const info = JSON.parse(fs.readFileSync(infoFile, 'utf8'));
      fs.rmSync(dir, { recursive: true, force: true });
      // The payments service trusts the double's self-signed certificate.
      await ctx.stack.restartApp('payments', { CONNECTOR_EXTRA_CA_FILE: info.caFile });
      const { key } =
        ENVIRONMENT === 'production'
          ? await ctx.memo('production-key', () => ctx.stack.createKey('production'))
          : { key: ctx.stack.key };
      await ctx.stack.addConnection({
        connectionCode: `adyen-bench-${new URL(info.endpoint).port}`,
        connectionName: 'Adyen double (bench)',
        acquirer: 'adyen',
        environment: ENVIRONMENT,
        currencies: [],
        methods: ['card'],
        priority: 10,
        endpoint: info.endpoint,
        credentials: {
          apiKey: info.credentials.apiKey,
          merchantAccount: info.credentials.merchantAccount,
          hmacKey: info.credentials.hmacKey,
        },
      });
      ctx.say(
        `${ENVIRONMENT} connection to the Adyen double at ${info.endpoint} (${PROVIDER_LATENCY_MS} ms per answer)`,
      );
      return {
        request: { url: ctx.stack.gatewayUrl, requests: productionPurchases(ctx.stack.merchantCode, key) },
        processes: double.processes,
        teardown: async () => {
          await double.teardown();
          await ctx.stack.restartApp('payments', {});
        },
      };
    },
  },
];
