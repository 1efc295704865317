import { request } from 'node:https';
import { AddressInfo, connect, createServer } from 'node:net';
import { DELIVERY_ERRORS, deliveryErrorOf } from './delivery-error';

const failure = (code: string, message = `connect ${code} 10.1.2.3:8443`) =>
  Object.assign(new Error(message), { code });

describe('deliveryErrorOf: a fixed class for every failure, never the socket’s words', () => {
  it.each([
    ['ECONNREFUSED', 'refused'],
    ['ECONNRESET', 'reset'],
    ['ETIMEDOUT', 'timeout'],
    ['EHOSTUNREACH', 'unreachable'],
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['EPROTO', 'tls'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['ESOMETHINGNEW', 'network'],
  ])('%s is %s', (code, kind) => {
    expect(deliveryErrorOf(failure(code))).toBe(kind);
  });

  it('an error without a code, or with an odd one, is network', () => {
    expect(deliveryErrorOf(new Error('connect 10.0.0.1:22'))).toBe('network');
    expect(deliveryErrorOf(failure('lower case 10.0.0.1'))).toBe('network');
    expect(deliveryErrorOf(undefined)).toBe('network');
  });

  it('a real refused connection and a real TLS failure (plain TCP answering TLS) are classed', async () => {
    const refused = await new Promise<unknown>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: 1 });
      socket.on('error', resolve);
    });
    expect(deliveryErrorOf(refused)).toBe('refused');

    // A plain-text server on the TLS port: the handshake fails (wrong version number).
    const server = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const tls = await new Promise<unknown>((resolve) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', agent: false });
      req.on('error', resolve);
      req.end();
    });
    await new Promise((resolve) => server.close(resolve));
    expect(deliveryErrorOf(tls)).toBe('tls');
    expect(DELIVERY_ERRORS).toContain(deliveryErrorOf(tls));
  });
});
