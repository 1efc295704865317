import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import * as contracts from './index';
import * as admin from '../../../apps/gateway/src/admin/admin.dto';
import * as webhooks from './webhooks/webhooks.dto';
import * as dashboard from '../../../apps/gateway/src/dashboard/dashboard.dto';
import * as team from '../../../apps/gateway/src/dashboard/dashboard-team.dto';
import * as cardUpdate from '../../../apps/gateway/src/card-update/card-update.dto';
import * as connections from '../../../apps/gateway/src/dashboard/dashboard-connections.dto';
import { readFileSync } from 'node:fs';
import { TEXT_LIMITS } from './text-limits';

const { limitsTable, withTable, README } = require('../../../scripts/limits-table.js') as {
  limitsTable(limits: typeof TEXT_LIMITS): string;
  withTable(readme: string, table: string): string;
  README: string;
};

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function;

const exported = [contracts, admin, webhooks, dashboard, team, cardUpdate, connections]
  .flatMap((m) => Object.values(m))
  .filter((v) => typeof v === 'function');
const classes = [...new Set(exported.flatMap((c) => ancestry(c as Ctor)))];
function ancestry(type: Ctor): Ctor[] {
  const parent = Object.getPrototypeOf(type) as Ctor;
  return parent && parent !== Function.prototype ? [type, ...ancestry(parent)] : [type];
}
const byName = new Map(classes.map((c) => [c.name, c]));

/** A class's rules by field, its parents' included. */
function rules(type: Ctor): Map<string, { name?: string; constraints?: unknown[]; each?: boolean }[]> {
  const out = new Map<string, { name?: string; constraints?: unknown[] }[]>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(type, '', true, false)) {
    out.set(m.propertyName, [...(out.get(m.propertyName) ?? []), m]);
  }
  return out;
}
const BOUNDING = new Set([
  'maxLength',
  'isLength',
  'matches',
  'isUuid',
  'isIn',
  'isEnum',
  'isISO8601',
  'isISO31661Alpha2',
]);
const STRING = new Set(['isString', 'isEmail', 'isUrl']);

describe('the text limits table', () => {
  it('names only classes and fields that exist, and each field takes exactly its limit', () => {
    for (const [className, row] of Object.entries(TEXT_LIMITS)) {
      const type = byName.get(className);
      expect({ className, found: !!type }).toEqual({ className, found: true });
      const byField = rules(type!);
      for (const [field, max] of Object.entries(row)) {
        const limits = (byField.get(field) ?? []).filter((r) => r.name === 'maxLength' || r.name === 'isLength');
        expect({ className, field, limits: limits.map((r) => r.constraints?.[r.name === 'isLength' ? 1 : 0]) }).toEqual(
          {
            className,
            field,
            limits: [max],
          },
        );
      }
    }
  });

  it('leaves no string field of a request or command unbounded', () => {
    const unbounded: string[] = [];
    for (const type of classes) {
      for (const [field, list] of rules(type)) {
        const names = new Set(list.map((r) => r.name));
        if ([...names].some((n) => STRING.has(n!)) && ![...names].some((n) => BOUNDING.has(n!))) {
          unbounded.push(`${type.name}.${field}`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('is the table in docs/api.md (node scripts/limits-table.js --write)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withTable(readme, limitsTable(TEXT_LIMITS))).toBe(readme);
  });
});
