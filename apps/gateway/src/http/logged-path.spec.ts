import { CREDENTIALS_IN_PATH, loggedPath, REDACTED } from './logged-path';

const request = (url: string, route?: string, params: Record<string, string> = {}) => ({
  url,
  params,
  routeOptions: { url: route },
});

describe('the path the access log shows', () => {
  it('redacts each keyless credential of a path, rebuilt from its route', () => {
    const sid = 'ses_0123456789abcdefABCDEF0123456789';
    expect(
      loggedPath(request(`/v1/3ds/challenge/${sid}?x=1`, '/v1/3ds/challenge/:sessionId', { sessionId: sid })),
    ).toBe(`/v1/3ds/challenge/${REDACTED}`);
    expect(loggedPath(request(`/v1/sandbox/3ds/${sid}`, '/v1/sandbox/3ds/:sessionId', { sessionId: sid }))).toBe(
      `/v1/sandbox/3ds/${REDACTED}`,
    );
    expect(loggedPath(request(`/v1/apm/${sid}`, '/v1/apm/:sessionId', { sessionId: sid }))).toBe(`/v1/apm/${REDACTED}`);
    expect(loggedPath(request('/checkout/lnk_1', '/checkout/:id', { id: 'lnk_1' }))).toBe(`/checkout/${REDACTED}`);
    expect(loggedPath(request('/v1/checkout/lnk_1/pay', '/v1/checkout/:id/pay', { id: 'lnk_1' }))).toBe(
      `/v1/checkout/${REDACTED}/pay`,
    );
    expect(
      loggedPath(request('/v1/payment/inquiry/ord-7', '/v1/payment/inquiry/:reference', { reference: 'ord-7' })),
    ).toBe(`/v1/payment/inquiry/${REDACTED}`);
    expect(loggedPath(request('/dashboard/invite/tok', '/dashboard/*', { '*': 'invite/tok' }))).toBe(
      `/dashboard/${REDACTED}`,
    );
    for (const route of Object.keys(CREDENTIALS_IN_PATH)) expect(route).toMatch(/[:*]/);
  });

  it('keeps other paths as they are, and of a path no route matched only its first two segments', () => {
    expect(loggedPath(request('/v1/payment/pay_1?merchantCode=a', '/v1/payment/:id', { id: 'pay_1' }))).toBe(
      '/v1/payment/pay_1',
    );
    expect(loggedPath(request('/v1/3ds/challenge/ses_1/x'))).toBe(`/v1/3ds/${REDACTED}/${REDACTED}/${REDACTED}`);
    expect(loggedPath(request('/nothing'))).toBe('/nothing');
  });
});
