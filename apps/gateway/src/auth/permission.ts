import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

/** A dashboard user's role on one merchant (docs/dashboard.md). */
export const ROLES = ['owner', 'developer', 'support'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a merchant route does, as far as a dashboard role is concerned. A private API key may call every
 * route; a dashboard session only routes whose permission its role holds (ROLE_PERMISSIONS).
 */
export const PERMISSIONS = ['read', 'refund', 'resend', 'manage', 'money', 'secrets', 'audit'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * owner: everything; developer: all but money movement and secrets; support: reads, refunds and webhook
 * resends. `money` is what moves money other than a refund (purchase, authorize, capture, cancel, a
 * subscription's charges); `secrets` shows or replaces a signing secret or an API key; `audit` reads the audit log.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  developer: ['read', 'resend', 'manage'],
  support: ['read', 'refund', 'resend'],
};

export const PERMISSION_METADATA = 'dashboard:permission';
/** The OpenAPI extension naming a route's permission (test/dashboard walks the document for it). */
export const PERMISSION_EXTENSION = 'x-permission';

/**
 * Declares which dashboard roles may call a merchant route (ROLE_PERMISSIONS). A route without one is
 * refused to every dashboard session (deny by default); API keys are not affected.
 */
export const RequirePermission = (permission: Permission): MethodDecorator =>
  applyDecorators(SetMetadata(PERMISSION_METADATA, permission), ApiExtension(PERMISSION_EXTENSION, permission));

export const roleAllows = (role: Role, permission: Permission | undefined): boolean =>
  permission !== undefined && ROLE_PERMISSIONS[role].includes(permission);
