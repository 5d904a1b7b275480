/*
 * The activity list (docs/operations.md#owners-pages): what each owner did
 * and when, never personal data of a lead. Its SQLite and PostgreSQL halves
 * are beside it.
 */

/**
 * One line of the activity list: who (an owner's e-mail, or 'cli'), what
 * (an action name and a detail), when. The detail is never personal data of
 * a lead: a lead id, a count, a stage, an owner id (ACTIVITY_DETAIL).
 */
export interface NewActivity {
  at: string;
  actor: string;
  action: string;
  detail: string;
}

export interface ActivityRecord extends NewActivity {
  id: number;
}

/**
 * What an activity's action and detail may hold: letters, digits and a few
 * separators, no '@', no spaces' worth of prose. A lead's name, e-mail,
 * phone or message cannot be written there by mistake; the store refuses it.
 */
export const ACTIVITY_ACTION = /^[a-z][a-z0-9_.-]{0,63}$/;
export const ACTIVITY_DETAIL = /^[A-Za-z0-9_.:,=/-]{0,200}$/;

export function checkActivity(entry: NewActivity): void {
  if (!ACTIVITY_ACTION.test(entry.action)) throw new Error('Invalid activity action');
  if (!ACTIVITY_DETAIL.test(entry.detail)) {
    throw new Error('Invalid activity detail: ids, counts and names of things only');
  }
}

export interface ActivityStore {
  /** Appends to the activity list; refuses a detail that could hold personal data. */
  recordActivity(entry: NewActivity): Promise<void>;

  /** The activity list, newest first. */
  listActivity(options?: { limit?: number; offset?: number }): Promise<ActivityRecord[]>;
}
