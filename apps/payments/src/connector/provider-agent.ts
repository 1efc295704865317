import { request as httpRequest } from 'node:http';
import { Agent, AgentOptions } from 'node:https';
import type { ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';

/** Where provider calls go out: through an HTTP proxy (CONNECT tunnel) unless the host is in NO_PROXY. */
export interface ProxySettings {
  /** http://[user:password@]host:port of the egress proxy; undefined: direct. */
  httpsProxy?: string;
  /** Hosts reached directly, comma-separated: `example.com` (and its subdomains), `.example.com`, `*`. */
  noProxy?: string;
}

/** The proxy settings of the payments config (HTTPS_PROXY, NO_PROXY). */
export const proxySettingsOf = (config: { HTTPS_PROXY?: string; NO_PROXY?: string }): ProxySettings => ({
  httpsProxy: config.HTTPS_PROXY?.trim() || undefined,
  noProxy: config.NO_PROXY?.trim() || undefined,
});

/** A request could not be tunnelled through the proxy: it never reached the provider (safe to send again). */
export class ProxyTunnelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyTunnelError';
  }
}

const KEEP_ALIVE: AgentOptions = { keepAlive: true, maxSockets: 256, timeout: 60_000 };

/**
 * An https.Agent that opens each connection through an HTTP proxy's CONNECT tunnel, then TLS to the provider
 * inside it (the proxy sees the host name, never the request). Keep-alive pools the tunnels per provider host.
 */
class TunnelAgent extends Agent {
  constructor(
    private readonly proxy: URL,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(
    options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const done = callback ?? (() => undefined);
    const host = String(options.host ?? options.hostname ?? 'localhost');
    const port = Number(options.port ?? 443);
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const headers: Record<string, string> = { host: target };
    if (this.proxy.username) {
      const user = `${decodeURIComponent(this.proxy.username)}:${decodeURIComponent(this.proxy.password)}`;
      headers['proxy-authorization'] = `Basic ${Buffer.from(user).toString('base64')}`;
    }
    const connect = httpRequest({
      host: this.proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(this.proxy.port || 80),
      method: 'CONNECT',
      path: target,
      headers,
      agent: false,
    });
    connect.once('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        done(new ProxyTunnelError(`The egress proxy answered ${res.statusCode} to CONNECT ${target}`), socket);
        return;
      }
      const servername = (options as { servername?: string }).servername ?? host;
      done(null, tlsConnect({ ...(options as object), socket, servername }));
    });
    connect.once('error', (e) => {
      done(new ProxyTunnelError(`The egress proxy cannot be reached: ${e.message}`), undefined as unknown as Duplex);
    });
    connect.end();
    return undefined;
  }
}

const noProxyMatches = (noProxy: string | undefined, host: string): boolean =>
  (noProxy ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase().replace(/:\d+$/, ''))
    .filter(Boolean)
    .some(
      (rule) =>
        rule === '*' || host === rule.replace(/^\*?\./, '') || host.endsWith(rule.startsWith('.') ? rule : `.${rule}`),
    );

/**
 * The HTTP agents the connectors reach the providers with: one keep-alive agent for direct calls and one that
 * tunnels through HTTPS_PROXY, chosen per URL by NO_PROXY. `agentFor(url)` is what a connector's HTTP client
 * takes (Stripe's `httpAgent`, Node's `https.request({ agent })`); `proxyFor(url)` gives the proxy itself to a
 * library that builds its own tunnel (@adyen/api-library's `HttpURLConnectionClient.proxy`).
 */
export class ProviderAgents {
  private readonly direct: Agent;
  private readonly tunnel?: Agent;
  private readonly proxy?: URL;

  constructor(
    private readonly settings: ProxySettings = {},
    options: AgentOptions = {},
  ) {
    this.direct = new Agent({ ...KEEP_ALIVE, ...options });
    if (settings.httpsProxy) {
      this.proxy = new URL(settings.httpsProxy);
      if (this.proxy.protocol !== 'http:') {
        throw new Error('HTTPS_PROXY must be an http:// proxy URL (the tunnel to the provider is TLS itself)');
      }
      this.tunnel = new TunnelAgent(this.proxy, { ...KEEP_ALIVE, ...options });
    }
  }

  /** The proxy a call to `url` goes through, or undefined when it goes direct. */
  proxyFor(url: string | URL): URL | undefined {
    if (!this.proxy) return undefined;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return noProxyMatches(this.settings.noProxy, host) ? undefined : this.proxy;
  }

  agentFor(url: string | URL): Agent {
    return this.proxyFor(url) && this.tunnel ? this.tunnel : this.direct;
  }

  destroy(): void {
    this.direct.destroy();
    this.tunnel?.destroy();
  }
}

/** The agents of this process: set by the payments module from its config at start; direct until then. */
let shared = new ProviderAgents();

/** Called once by the payments module with its config's proxy settings. */
export function useProviderAgents(agents: ProviderAgents): void {
  shared = agents;
}

/**
 * The agent a connector uses to call `url` (the provider's endpoint): honours the payments config's
 * HTTPS_PROXY and NO_PROXY, keeps connections alive.
 */
export function providerAgent(url: string | URL): Agent {
  return shared.agentFor(url);
}

/** The proxy a call to `url` goes through (for a library that takes `{host, port}`), or undefined: direct. */
export function providerProxy(url: string | URL): URL | undefined {
  return shared.proxyFor(url);
}
