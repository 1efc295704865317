'use strict';

/** Baseline: Fastify with one JSON route and nothing else, the ceiling for any Fastify-based gateway. */
const fastify = require('fastify');
const { announce, fail, pingLikePayload } = require('./common');

async function main() {
  const app = fastify({ logger: false });
  app.get('/hello', async () => pingLikePayload());
  await app.listen({ port: 0, host: '127.0.0.1' });
  announce(app.server.address().port, () => app.close());
}

main().catch(fail);
