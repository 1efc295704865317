'use strict';

/** Baseline: Express with one JSON route and nothing else. */
const express = require('express');
const { announce, fail, pingLikePayload } = require('./common');

function main() {
  const app = express();
  app.disable('x-powered-by');
  app.get('/hello', (_req, res) => res.json(pingLikePayload()));
  const server = app.listen(0, '127.0.0.1', (err) => {
    if (err) return fail(err);
    announce(server.address().port, () => new Promise((resolve) => server.close(resolve)));
  });
}

main();
