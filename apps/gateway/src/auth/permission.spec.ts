import { PERMISSIONS, ROLES, roleAllows } from './permission';

describe('dashboard role permissions', () => {
  it('refuses every role a route that declares no permission (deny by default)', () => {
    for (const role of ROLES) expect(roleAllows(role, undefined)).toBe(false);
  });

  it('owner: all (the audit log only to owners); developer: all but money, refunds and secrets; support: reads, refunds, resends', () => {
    const table = Object.fromEntries(ROLES.map((r) => [r, PERMISSIONS.filter((p) => roleAllows(r, p))]));
    expect(table).toEqual({
      owner: ['read', 'refund', 'resend', 'manage', 'money', 'secrets', 'audit'],
      developer: ['read', 'resend', 'manage'],
      support: ['read', 'refund', 'resend'],
    });
  });
});
