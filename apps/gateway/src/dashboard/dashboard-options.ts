import type { GatewayConfig } from '../config';

/** The dashboard's settings, from the gateway's configuration (docs/dashboard.md). */
export interface DashboardOptions {
  idleMs: number;
  maxAgeMs: number;
  lockoutFailures: number;
  lockoutWindowMs: number;
  /** Cookies carry `Secure` unless DASHBOARD_INSECURE_COOKIE says otherwise (local development on http://). */
  secureCookie: boolean;
  publicBaseUrl: string;
}

export const DASHBOARD_OPTIONS = Symbol('DASHBOARD_OPTIONS');
/** An invitation link is good for 72 hours. */
export const INVITATION_TTL_MS = 72 * 3600_000;

export const dashboardOptionsOf = (config: GatewayConfig): DashboardOptions => ({
  idleMs: config.DASHBOARD_SESSION_IDLE_MINUTES * 60_000,
  maxAgeMs: config.DASHBOARD_SESSION_MAX_HOURS * 3600_000,
  lockoutFailures: config.DASHBOARD_LOCKOUT_FAILURES,
  lockoutWindowMs: config.DASHBOARD_LOCKOUT_MINUTES * 60_000,
  secureCookie: !config.DASHBOARD_INSECURE_COOKIE,
  publicBaseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
});
