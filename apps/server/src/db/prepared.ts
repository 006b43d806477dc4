import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stands for the i-th argument while the query is built once; replaced by the argument's value at each run. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A query whose shape never changes, built and compiled by Kysely once; each run only binds its values
 * and goes through the dialect's driver as any Kysely query does (on SQLite its statement cache, so the
 * statement is prepared once too). Building a query (Kysely's node tree, freezing, the compiler's
 * visit) cost more than running a point query: about a fifth of the server's CPU under bench/load's
 * mix, for statements run on every call (the device access check, a device's last fix).
 *
 * `build` receives stand-ins for the arguments and must use each only as a plain value (`where(col,
 * '=', a)`), never in a way that changes the SQL's text (a list for `in`, a condition chosen by it).
 */
export function preparedQuery<A extends readonly unknown[], R>(db: Pick<Kysely<Database>, 'executeQuery'>, arity: A['length'], build: (...args: A) => Compilable<R>) {
  let compiled: CompiledQuery<R> | undefined;
  return async (...args: A): Promise<R[]> => {
    compiled ??= build(...(Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A)).compile();
    const parameters = compiled.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    const { rows } = await db.executeQuery<R>({ ...compiled, parameters });
    return rows;
  };
}
