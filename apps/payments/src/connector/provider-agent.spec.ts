import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, Server } from 'node:http';
import { createServer as createHttpsServer, request } from 'node:https';
import { AddressInfo, connect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderAgents, proxySettingsOf } from './provider-agent';

function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'provider-agent-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
        .concat(['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'])
        .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

describe('ProviderAgents (HTTPS_PROXY)', () => {
  const tls = selfSigned();
  const provider = createHttpsServer(tls, (req, res) => res.end(JSON.stringify({ path: req.url, ok: true })));
  /** An egress proxy that tunnels CONNECT and remembers where to; 407 without the right credential. */
  const tunnels: string[] = [];
  const proxy = createHttpServer();
  proxy.on('connect', (req, client: Socket, head) => {
    if (req.headers['proxy-authorization'] !== `Basic ${Buffer.from('egress:s3cret').toString('base64')}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    tunnels.push(req.url!);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  let providerPort: number;
  let proxyPort: number;

  beforeAll(async () => {
    providerPort = await listen(provider);
    proxyPort = await listen(proxy);
  });
  afterAll(() => {
    provider.close();
    proxy.close();
  });

  const get = (agents: ProviderAgents, url: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request(url, { agent: agents.agentFor(url), ca: tls.cert }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });

  it('tunnels provider calls through the proxy with CONNECT, TLS to the provider inside', async () => {
    tunnels.length = 0;
    const agents = new ProviderAgents({ httpsProxy: `http://egress:s3cret@127.0.0.1:${proxyPort}` });
    const url = `https://localhost:${providerPort}/checkout/v71/payments`;
    expect(JSON.parse(await get(agents, url))).toEqual({ path: '/checkout/v71/payments', ok: true });
    expect(tunnels).toEqual([`localhost:${providerPort}`]);
    expect(agents.proxyFor(url)?.port).toBe(String(proxyPort));
    agents.destroy();
  });

  it('a proxy that refuses the tunnel fails the call before anything reached the provider', async () => {
    const agents = new ProviderAgents({ httpsProxy: `http://127.0.0.1:${proxyPort}` });
    await expect(get(agents, `https://localhost:${providerPort}/x`)).rejects.toThrow(
      /egress proxy answered 407 to CONNECT/,
    );
    agents.destroy();
  });

  it('goes direct without HTTPS_PROXY, and for NO_PROXY hosts', async () => {
    tunnels.length = 0;
    const direct = new ProviderAgents({});
    expect(JSON.parse(await get(direct, `https://localhost:${providerPort}/a`))).toMatchObject({ ok: true });
    const bypass = new ProviderAgents({ httpsProxy: `http://127.0.0.1:${proxyPort}`, noProxy: '.svc, localhost' });
    expect(JSON.parse(await get(bypass, `https://localhost:${providerPort}/b`))).toMatchObject({ ok: true });
    expect(tunnels).toEqual([]);
    expect(bypass.proxyFor('https://checkout-test.adyen.com')).toBeDefined();
    expect(bypass.proxyFor('https://payments.payments-platform.svc')).toBeUndefined();
    direct.destroy();
    bypass.destroy();
  });

  it("takes the payments config's HTTPS_PROXY and NO_PROXY; refuses a non-http proxy URL", () => {
    expect(proxySettingsOf({ HTTPS_PROXY: 'http://p:3128', NO_PROXY: '.svc' })).toEqual({
      httpsProxy: 'http://p:3128',
      noProxy: '.svc',
    });
    expect(proxySettingsOf({})).toEqual({ httpsProxy: undefined, noProxy: undefined });
    expect(() => new ProviderAgents({ httpsProxy: 'socks5://p:1080' })).toThrow(/http:\/\/ proxy URL/);
  });
});
