import { CheckoutAPI, Client, EnvironmentEnum } from '@adyen/api-library';
import type ClientInterface from '@adyen/api-library/lib/src/httpClient/clientInterface';
import { ConnectorNotSent, type ConnectorConnection } from '../provider-connector';
import { AdyenHttpClient } from './adyen-http-client';
import { adyenTarget } from './adyen.connector';
import { adyenRefusal } from './adyen-refusals';

const connection = (environment: 'sandbox' | 'production', endpoint?: string): ConnectorConnection => ({
  connectionCode: 'adyen-1',
  merchantCode: 'm',
  environment,
  credentials: { apiKey: 'k', merchantAccount: 'M' },
  ...(endpoint ? { endpoint } : {}),
});

/** The URL the official library builds for /payments with a connection's target (nothing is sent). */
async function paymentsUrl(c: ConnectorConnection): Promise<string> {
  const target = adyenTarget(c);
  let url = '';
  const capture: ClientInterface = {
    request: (endpoint) => {
      url = endpoint;
      return Promise.resolve('{}');
    },
  };
  const client = new Client(
    {
      apiKey: 'k',
      environment: target.environment,
      ...(target.liveEndpointUrlPrefix ? { liveEndpointUrlPrefix: target.liveEndpointUrlPrefix } : {}),
    },
    capture,
  );
  await new CheckoutAPI(client).PaymentsApi.payments({
    merchantAccount: 'M',
    reference: 'r',
    amount: { currency: 'EUR', value: 1 },
    paymentMethod: { type: 'scheme' } as never,
    returnUrl: 'https://x.test/',
  });
  return target.origin ? new AdyenHttpClient({ origin: target.origin, timeoutMs: 1 }).urlFor(url).toString() : url;
}

describe('Adyen endpoints', () => {
  it("sends a sandbox connection to Adyen's test endpoint", async () => {
    expect(await paymentsUrl(connection('sandbox'))).toBe('https://checkout-test.adyen.com/v71/payments');
  });

  it("sends a production connection to its live prefix's URL", async () => {
    const live = connection(
      'production',
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout',
    );
    expect(adyenTarget(live).environment).toBe(EnvironmentEnum.LIVE);
    expect(await paymentsUrl(live)).toBe(
      'https://1797a841fbb37ca7-AdyenDemo-checkout-live.adyenpayments.com/checkout/v71/payments',
    );
  });

  it('sends a connection with another endpoint there, keeping the API path', async () => {
    expect(await paymentsUrl(connection('production', 'https://127.0.0.1:4555'))).toBe(
      'https://127.0.0.1:4555/v71/payments',
    );
  });

  it('sends nothing for a production connection without its live endpoint, or a sandbox one with a live endpoint', () => {
    expect(() => adyenTarget(connection('production'))).toThrow(ConnectorNotSent);
    expect(() => adyenTarget(connection('sandbox', 'https://abc-checkout-live.adyenpayments.com/checkout'))).toThrow(
      ConnectorNotSent,
    );
  });
});

describe('Adyen refusals', () => {
  it("prefers the issuer's raw ISO code to Adyen's generic refusal", () => {
    expect(adyenRefusal('2', 'Refused', '51 : Insufficient funds')).toEqual({
      reasonCode: '51',
      reason: 'Insufficient funds',
      originalReasonCode: '2',
      originalReason: 'Refused (51 : Insufficient funds)',
      recoveryAction: 'switch_method',
    });
    // A specific Adyen code stands whatever the raw answer says.
    expect(adyenRefusal('6', 'Expired Card', '05 : Do not honor').reasonCode).toBe('54');
  });

  it("follows Mastercard's merchant advice: never retry after 03 or 21", () => {
    expect(adyenRefusal('2', 'Refused', undefined, '03: Do not try again').recoveryAction).toBe('terminal');
    expect(adyenRefusal('12', 'Not enough balance', undefined, '21: Payment cancelled').recoveryAction).toBe(
      'terminal',
    );
    expect(adyenRefusal('2', 'Refused', undefined, '01: New account information available').recoveryAction).toBe(
      'switch_method',
    );
    expect(adyenRefusal('12', 'Not enough balance', undefined, '02: Cannot approve at this time').recoveryAction).toBe(
      'retry',
    );
    expect(adyenRefusal('20', 'FRAUD', undefined, '02: Cannot approve at this time').recoveryAction).toBe('terminal');
  });

  it('maps a webhook reason text without a code, and an unknown code as a generic refusal', () => {
    expect(adyenRefusal(undefined, 'Not enough balance')).toMatchObject({ reasonCode: '51', originalReasonCode: '12' });
    expect(adyenRefusal('999', 'Something new')).toEqual({
      reasonCode: '5',
      reason: 'Do not honor',
      originalReasonCode: '999',
      originalReason: 'Something new',
      recoveryAction: 'retry',
    });
  });
});
