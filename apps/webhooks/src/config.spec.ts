import { loadWebhooksConfig } from './config';

describe('webhooks configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it('is off by default and may be turned on in development and test', () => {
    expect(loadWebhooksConfig({}).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
    expect(loadWebhooksConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
    expect(
      loadWebhooksConfig({ NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOK_ALLOW_PRIVATE_TARGETS,
    ).toBe(true);
  });

  it('a production start refuses it, naming it', () => {
    const production = { NODE_ENV: 'production' };
    const refused = () => loadWebhooksConfig({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(refused).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS lifts a protection and may not be true when NODE_ENV=production/,
    );
    // Off (or unset) it is no problem of its own in production.
    const problems = (env: Record<string, string>): string => {
      try {
        loadWebhooksConfig(env);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(problems({ ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' })).not.toMatch(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
  });
});
