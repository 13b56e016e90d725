import { z } from 'zod';
import type { PersonRef } from '../../../shared/day-api.ts';

// issue 17: a person named on a row (who sold, counted, closed) is stored as two columns, <role>_id and <role>_name, the
// name as it was then: a later rename does not rewrite history. issue 28: the pair is described here once.

type PersonColumnNames<P extends string> = `${P}_id` | `${P}_name`;

/** The zod shape of the person columns `<prefix>_id` and `<prefix>_name`, both nullable (nobody recorded). */
export function personColumns<P extends string>(prefix: P): Record<PersonColumnNames<P>, z.ZodNullable<z.ZodString>> {
  return { [`${prefix}_id`]: z.string().nullable(), [`${prefix}_name`]: z.string().nullable() } as Record<PersonColumnNames<P>, z.ZodNullable<z.ZodString>>;
}

/** The person the columns `<prefix>_id` and `<prefix>_name` of a read row name; null unless both are there. */
export function personIn<P extends string>(row: Record<PersonColumnNames<P>, string | null>, prefix: P): PersonRef | null {
  const id = row[`${prefix}_id`];
  const name = row[`${prefix}_name`];
  return id !== null && name !== null ? { id, name } : null;
}

type PersonParamNames<N extends string> = `${N}Id` | `${N}Name`;

/** The named parameters `@<name>Id` and `@<name>Name` a statement writes a person's columns from; both null for nobody. */
export function personParams<N extends string>(name: N, person: PersonRef | null): Record<PersonParamNames<N>, string | null> {
  return { [`${name}Id`]: person?.id ?? null, [`${name}Name`]: person?.name ?? null } as Record<PersonParamNames<N>, string | null>;
}
