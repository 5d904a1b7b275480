/** One step of a store's schema: applied once, in order, inside the migration transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
