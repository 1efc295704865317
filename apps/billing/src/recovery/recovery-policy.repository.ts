import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DEFAULT_RECOVERY_RULES, RecoveryPolicyView, RecoveryRules } from '@app/contracts';
import { runStatement, statement } from '@app/database';
import { Scope } from '../scope';

interface PolicyRow extends Record<string, unknown> {
  merchant_code: string;
  environment: string;
  version: number;
  rules: RecoveryRules;
  created_at: Date;
}

const keyOf = (s: { merchantCode: string; environment: string }): string => `${s.environment}:${s.merchantCode}`;

export const toRecoveryPolicyView = (version: number, rules: RecoveryRules, createdAt: Date | null) =>
  ({ version, ...rules, createdAt: createdAt ? createdAt.toISOString() : null }) satisfies RecoveryPolicyView;

/** The recovery policies of some merchants, every version: what a batch of declines is decided by. */
export class LoadedPolicies {
  constructor(private readonly rows: readonly PolicyRow[]) {}

  /** The version a run starting now records: the merchant's latest, 0 for the default. */
  currentVersion(scope: Scope): number {
    const key = keyOf(scope);
    return this.rows.reduce(
      (v, r) =>
        keyOf({ merchantCode: r.merchant_code, environment: r.environment } as Scope) === key
          ? Math.max(v, r.version)
          : v,
      0,
    );
  }

  /** The rules of a version (0, or a version it does not know: the default). */
  rules(scope: Scope, version: number): RecoveryRules {
    const row = this.rows.find(
      (r) => r.version === version && r.merchant_code === scope.merchantCode && r.environment === scope.environment,
    );
    return row?.rules ?? DEFAULT_RECOVERY_RULES;
  }
}

const CURRENT = statement(
  'recovery_policies_current',
  'SELECT * FROM recovery_policies WHERE merchant_code = $1 AND environment = $2 ORDER BY version DESC LIMIT 1',
);
const LOCK = statement(
  'recovery_policies_lock',
  `SELECT pg_advisory_xact_lock(hashtext('recovery_policy:' || $1 || ':' || $2))`,
);
const INSERT_NEXT = statement(
  'recovery_policies_insert_next',
  `INSERT INTO recovery_policies (merchant_code, environment, version, rules, created_at)
   SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3, $4 FROM recovery_policies
    WHERE merchant_code = $1 AND environment = $2
   RETURNING *`,
);
const OF_SCOPES = statement(
  'recovery_policies_of_scopes',
  `SELECT * FROM recovery_policies WHERE (merchant_code, environment) IN
     (SELECT * FROM unnest($1::text[], $2::text[]))`,
);

/** Merchants' recovery policies: each change a new version, none ever changed or deleted. */
@Injectable()
export class RecoveryPolicyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async current(scope: Scope, manager: EntityManager = this.db.manager): Promise<RecoveryPolicyView> {
    const [row] = await runStatement<PolicyRow>(manager, CURRENT, [scope.merchantCode, scope.environment]);
    return row
      ? toRecoveryPolicyView(row.version, row.rules, row.created_at)
      : toRecoveryPolicyView(0, { ...DEFAULT_RECOVERY_RULES }, null);
  }

  /** The next version, numbered under a lock of the merchant's policy (two changes at once get 1 and 2). */
  async insertNext(manager: EntityManager, scope: Scope, rules: RecoveryRules, now: Date): Promise<RecoveryPolicyView> {
    await runStatement(manager, LOCK, [scope.environment, scope.merchantCode]);
    const values = [scope.merchantCode, scope.environment, JSON.stringify(rules), now];
    const [row] = await runStatement<PolicyRow>(manager, INSERT_NEXT, values);
    return toRecoveryPolicyView(row.version, row.rules, row.created_at);
  }

  /** Every version of these merchants' policies (few: one per change), for one batch of declines. */
  async load(manager: EntityManager, scopes: readonly Scope[]): Promise<LoadedPolicies> {
    if (!scopes.length) return new LoadedPolicies([]);
    const values = [scopes.map((s) => s.merchantCode), scopes.map((s) => s.environment)];
    const rows = await runStatement<PolicyRow>(manager, OF_SCOPES, values);
    return new LoadedPolicies(rows);
  }
}
