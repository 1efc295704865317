'use strict';

/**
 * The files of a nats-server configured as k8s/nats and docker-compose.yml run it: TLS with a certificate of a
 * CA made here (openssl), JetStream in `dir`/store, and the committed authorization.conf with a fresh nkey per
 * app, whose public keys the server reads from its environment. The caller starts
 * `nats-server -c <configFile>` with `serverEnv`; the apps connect to tls://127.0.0.1:<port> with `caFile`
 * and their seed. Used by the e2e tests (test/support/secure-nats.ts) and `npm run bench -- --secure-nats`.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { nkeys } = require('nats');
const { OUTPUT: AUTHORIZATION, nkeyVariableOf } = require('../../scripts/nats-config.js');

const APPS = ['gateway', 'payments', 'payment-links', 'billing', 'webhooks'];

/** A user nkey: the seed the app holds and the public key the server knows. */
function newNkey() {
  const user = nkeys.createUser();
  return { seed: Buffer.from(user.getSeed()).toString(), publicKey: user.getPublicKey() };
}

/** A CA and a server certificate for 127.0.0.1 and localhost signed by it (ca.crt, server.crt, server.key). */
function makeCertificates(dir) {
  const run = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=test NATS CA']);
  run(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial'].concat([
      '-out',
      'server.crt',
      '-days',
      '1',
      '-extfile',
      'server.ext',
    ]),
  );
}

/** Writes the certificates, keys and configuration into `dir` for a server on 127.0.0.1:`port`. */
function prepareSecureNats(dir, port) {
  const file = (name) => path.join(dir, name);
  makeCertificates(dir);
  fs.copyFileSync(AUTHORIZATION, file('authorization.conf'));
  const keys = Object.fromEntries(APPS.map((app) => [app, newNkey()]));
  fs.writeFileSync(
    file('nats.conf'),
    [
      `listen: "127.0.0.1:${port}"`,
      `server_name: "secure-${port}"`,
      `jetstream { store_dir: ${JSON.stringify(file('store'))} }`,
      `tls { cert_file: ${JSON.stringify(file('server.crt'))}, key_file: ${JSON.stringify(file('server.key'))} }`,
      'include ./authorization.conf',
      '',
    ].join('\n'),
  );
  return {
    url: `tls://127.0.0.1:${port}`,
    configFile: file('nats.conf'),
    caFile: file('ca.crt'),
    keys,
    serverEnv: Object.fromEntries(APPS.map((app) => [nkeyVariableOf(app), keys[app].publicKey])),
    /** The settings `app` connects with. */
    envOf: (app) => ({
      NATS_URL: `tls://127.0.0.1:${port}`,
      NATS_CA_FILE: file('ca.crt'),
      NATS_NKEY_SEED: keys[app].seed,
    }),
  };
}

module.exports = { APPS, newNkey, prepareSecureNats };
