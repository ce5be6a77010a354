/**
 * PostgreSQL array literals, so a batch statement takes one parameter per column (`unnest($1::int[], …)`) instead
 * of one per value; the same text on node-postgres and PGlite.
 */
export const intArray = (values: (number | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : String(Math.trunc(v)))).join(',')}}`;

/** texts (also timestamps as ISO strings, booleans as t/f): each quoted, backslashes and quotes escaped */
export const textArray = (values: (string | number | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
