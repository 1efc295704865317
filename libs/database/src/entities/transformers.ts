import { ValueTransformer } from 'typeorm';

/** `bigint` columns arrive from pg as strings; money values are safe integers in the domain. */
export const bigintNumber: ValueTransformer = {
  to: (value?: number | null) => value,
  from: (value?: string | null) => {
    if (value === null || value === undefined) return value;
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new Error(`bigint ${value} exceeds the safe integer range`);
    return n;
  },
};
