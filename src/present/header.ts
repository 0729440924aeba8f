// The session header as labelled fields: bounded single lines (a 200 KB cwd does not run off the
// edge), bidi controls neutralised, dates in the one format.
import { valueText } from './bounded-json';
import { phrase, type Formatter } from './format';
import { oneLine } from './text';

export interface Field {
  /** Stable key for ids and tests. */
  name: string;
  label: string;
  /** One line, bounded. */
  value: string;
  /** A longer bounded form when `value` was shortened. */
  full?: string;
}

/** Widest header value in a list; the `full` form (a tooltip) is bounded too. */
const VALUE_WIDTH = 120;
const FULL_WIDTH = 2000;

const HEADER_FIELDS: [name: string, label: string][] = [
  ['id', phrase('Session id')],
  ['version', phrase('Format version')],
  ['createdAt', phrase('Created')],
  ['cwd', phrase('Working directory')],
  ['parentSession', phrase('Parent session')],
  ['seedLength', phrase('Seed length')],
  ['origin', phrase('Origin')],
  ['delegationDepth', phrase('Delegation depth')],
  ['agentPreset', phrase('Agent preset')],
];

/** A labelled value made safe: one line, at most `width` units, with the longer form when cut. */
export function field(name: string, label: string, raw: string, width = VALUE_WIDTH): Field {
  const value = oneLine(raw, width);
  const full = raw.length > width ? oneLine(raw, FULL_WIDTH) : undefined;
  return full !== undefined && full !== value ? { name, label, value, full } : { name, label, value };
}

/**
 * The fields of a header line as written (dsh's header, or the first line when dsh refused it).
 * Undefined when the line is no `session` object at all.
 */
export function headerFields(line: unknown, fmt: Formatter): Field[] | undefined {
  if (typeof line !== 'object' || line === null || Array.isArray(line)) return undefined;
  const record = line as Record<string, unknown>;
  if (record.type !== 'session') return undefined;
  const out: Field[] = [];
  for (const [name, english] of HEADER_FIELDS) {
    const label = fmt.t(english);
    const v = record[name];
    if (v === undefined) {
      if (name === 'delegationDepth') out.push({ name, label, value: fmt.t('(missing)') });
      continue;
    }
    const raw = name === 'createdAt' ? fmt.date(v) : typeof v === 'number' ? fmt.count(v) : valueText(v, FULL_WIDTH + 10);
    out.push(field(name, label, name === 'version' && typeof v === 'number' ? String(v) : raw));
  }
  return out;
}

/** The session's title: its id (bounded), or a phrase when the header is unreadable. */
export function sessionTitle(line: unknown, fmt: Formatter): string {
  const id = typeof line === 'object' && line !== null ? (line as Record<string, unknown>).id : undefined;
  if (typeof id === 'string' && id.trim() !== '') return oneLine(id, 80);
  return fmt.t('(no readable header)');
}
