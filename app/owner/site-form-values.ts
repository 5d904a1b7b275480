import type { ContentProblem, SiteContent, SiteContentSection } from '../content/site-content.ts';
import type { FieldSpec } from './site-fields.ts';

/*
 * A /admin/site form's values (docs/operations.md, "Owner's pages"): the
 * content as a form shows it, a post read back into the content by each
 * field's path and kind (site-fields.ts), and the schema's refusals placed
 * beside their fields.
 */

/** What a form posted, by field name: text, or every value of a repeated field. */
export type FormValues = Record<string, string | string[]>;

/** The field's id in the page, for labels, links from the checklist and error messages. */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;
}

function valueAt(content: unknown, name: string): unknown {
  let value: unknown = content;
  for (const part of name.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The content as the form shows it. */
export function formValuesOf(content: unknown, fields: readonly FieldSpec[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = valueAt(content, field.name);
    if (field.kind === 'days') values[field.name] = Array.isArray(value) ? value.map(String) : [];
    else if (field.kind === 'checkbox') values[field.name] = value === true ? 'yes' : '';
    else values[field.name] = value === undefined || value === null ? '' : String(value);
  }
  return values;
}

/** The posted form's values of these fields (line breaks as \n). */
export function formValuesFrom(form: URLSearchParams, fields: readonly FieldSpec[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'days') values[field.name] = form.getAll(field.name);
    else values[field.name] = (form.get(field.name) ?? '').replace(/\r\n?/g, '\n');
  }
  return values;
}

function setAt(target: Record<string, unknown>, name: string, value: unknown): void {
  const parts = name.split('.');
  let node: Record<string, unknown> = target;
  parts.slice(0, -1).forEach((part, index) => {
    const next = parts[index + 1] ?? '';
    if (node[part] === undefined) node[part] = /^\d+$/.test(next) ? [] : {};
    node = node[part] as Record<string, unknown>;
  });
  node[parts.at(-1) ?? ''] = value;
}

/** A number when the text is one; the text otherwise, so the schema names the field. */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : trimmed;
}

/**
 * The values as content, for the schema to check: empty optional fields
 * left out, numbers as numbers, checkboxes as true or false.
 */
export function contentFrom(
  values: FormValues,
  fields: readonly FieldSpec[],
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = values[field.name];
    const text = typeof raw === 'string' ? raw : '';
    switch (field.kind) {
      case 'days':
        setAt(content, field.name, Array.isArray(raw) ? raw : []);
        break;
      case 'checkbox':
        setAt(content, field.name, text !== '');
        break;
      case 'number':
      case 'rating':
        setAt(content, field.name, numberOf(text));
        break;
      case 'optional':
      case 'optional-textarea':
      case 'optional-date':
        if (text.trim() !== '') setAt(content, field.name, text.trim());
        break;
      default:
        setAt(content, field.name, text);
    }
  }
  return content;
}

/** Per field: the schema's messages, and the ones that name no field of the form. */
export interface FieldErrors {
  byField: Record<string, string>;
  other: string[];
}

/**
 * The schema's problems by the field they name: `skip` leading parts of
 * each path (the section, and an offer's index) are not the field's.
 */
export function fieldErrors(
  problems: readonly ContentProblem[],
  fields: readonly FieldSpec[],
  skip: number,
): FieldErrors {
  const names = new Set(fields.map((field) => field.name));
  const errors: FieldErrors = { byField: {}, other: [] };
  for (const problem of problems) {
    const path = problem.path.slice(skip).map(String);
    // The deepest field the path names: 'openingHours.0.days.2' is the days field.
    let name: string | undefined;
    for (let length = path.length; length > 0 && !name; length--) {
      const candidate = path.slice(0, length).join('.');
      if (names.has(candidate)) name = candidate;
    }
    if (name) errors.byField[name] ??= problem.message;
    else errors.other.push(problem.message);
  }
  return errors;
}

/** The section's content type, for callers that pick one. */
export type SectionContent<S extends SiteContentSection> = SiteContent[S];
