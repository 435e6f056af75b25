/**
 * Kysely builds and compiles every query anew: 15–50 µs per query on the ingest path (measured), as much as
 * SQLite takes to run it. A hot query is built once per database and parameter shape from placeholders; later
 * calls bind their values into the same SQL. The builder must use its parameters as plain values only (no
 * branching on them, no `sql.lit`); undefined values, which Kysely leaves out of the SQL, take the normal path.
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** Stands for the parameter `key` while a hot query is built. */
class Slot {
  constructor(readonly key: string) {}
}

interface Compiled {
  query: CompiledQuery;
  /** Per bound parameter of the SQL: the parameter key it takes, or null for a constant of the builder. */
  keys: (string | null)[];
}

export interface HotQuery<P, R> {
  (db: Kysely<Database>, params: P): Promise<QueryResult<R>>;
  /** The SQL and bound values, for running elsewhere (the SQLite writer thread). */
  compile(db: Kysely<Database>, params: P): CompiledQuery<R>;
}

export function hotQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
): HotQuery<P, R> {
  // Keyed by the dialect adapter (one per database; transactions share their database's) and the keys of P.
  const cache = new WeakMap<object, Map<string, Compiled>>();
  const compile = (db: Kysely<Database>, params: P): CompiledQuery<R> => {
    const values = Object.values(params);
    if (values.includes(undefined)) return build(db, params).compile();
    const adapter = db.getExecutor().adapter;
    let shapes = cache.get(adapter);
    if (!shapes) cache.set(adapter, (shapes = new Map()));
    const shape = Object.keys(params).join();
    let compiled = shapes.get(shape);
    if (!compiled) {
      const slots = Object.fromEntries(Object.keys(params).map((key) => [key, new Slot(key)]));
      const query = build(db, slots as P).compile();
      const keys = query.parameters.map((value) => (value instanceof Slot ? value.key : null));
      shapes.set(shape, (compiled = { query, keys }));
    }
    const { query, keys } = compiled;
    const parameters = keys.map((key, i) => (key === null ? query.parameters[i] : params[key]));
    return { ...query, parameters } as CompiledQuery<R>;
  };
  return Object.assign((db: Kysely<Database>, params: P) => db.executeQuery(compile(db, params)), {
    compile,
  });
}
