'use strict';

/**
 * Shared by the baseline servers: the JSON they answer (about the size and shape of a ping answer, so the
 * comparison with the gateway is about the work, not the bytes) and the start-up handshake with the bench.
 */
function pingLikePayload() {
  return {
    service: 'payments',
    instanceId: `${process.pid}-baseline`,
    merchantCode: 'bench',
    environment: 'sandbox',
    requestId: '0190f5a2-7c1e-7b3a-9d4e-2f6a8b1c3d5e',
    now: new Date().toISOString(),
  };
}

/** Tells the bench which port we listen on; exits when the bench goes away or asks us to stop. */
function announce(port, close) {
  const stop = () => {
    Promise.resolve(close && close())
      .catch(() => undefined)
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
  if (process.send) process.send({ listening: port });
  else console.log(`listening on ${port}`);
}

function fail(e) {
  process.stderr.write(`${e.stack || e.message}\n`);
  process.exit(1);
}

module.exports = { announce, fail, pingLikePayload };
