import { createContext, useContext } from 'react';
import type { Environment, Membership, PaymentsClient, Role, SessionView } from './session';

/** The signed-in user acting for one merchant in one environment, and what its role may do. */
export interface Workspace {
  session: SessionView;
  membership: Membership;
  environment: Environment;
  api: PaymentsClient;
}

export const WorkspaceContext = createContext<Workspace | undefined>(undefined);

export function useWorkspace(): Workspace {
  const w = useContext(WorkspaceContext);
  if (!w) throw new Error('useWorkspace outside a signed-in page');
  return w;
}

/** What each role may do (docs/dashboard.md); the server refuses the same, this only hides the controls. */
const ALLOWED: Record<Role, ReadonlySet<Capability>> = {
  owner: new Set(['money', 'refund', 'resend', 'manage', 'secrets', 'keys', 'team', 'audit']),
  developer: new Set(['resend', 'manage']),
  support: new Set(['refund', 'resend']),
};
/** apps/gateway/src/auth/permission.ts names the same (`keys` and `team` are the owners' key and team pages). */
export type Capability = 'money' | 'refund' | 'resend' | 'manage' | 'secrets' | 'keys' | 'team' | 'audit';

export function useCan(): (c: Capability) => boolean {
  const { membership } = useWorkspace();
  return (c) => ALLOWED[membership.role].has(c);
}
