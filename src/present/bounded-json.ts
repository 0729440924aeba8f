// JSON text of an untrusted value that can neither blow the stack nor grow without limit. A log value
// may nest thousands of levels deep or hold megabytes; `JSON.stringify` would recurse through all of
// it. This walks iteratively, stops at `maxDepth` (writing `…`), and stops writing at `maxChars`.

export interface BoundedJsonOptions {
  /** Indent per level (0: compact, one line). */
  indent?: number;
  maxDepth?: number;
  maxChars?: number;
}

export interface BoundedJson {
  text: string;
  /** True when depth or length limits left something out. */
  truncated: boolean;
}

type Frame = { kind: 'value'; value: unknown; depth: number } | { kind: 'text'; text: string };

/** Serialises `value` as JSON, bounded in depth and length; never throws (cycles are cut by the depth bound). */
export function boundedJson(value: unknown, options: BoundedJsonOptions = {}): BoundedJson {
  const indent = options.indent ?? 0;
  const maxDepth = options.maxDepth ?? 64;
  const maxChars = options.maxChars ?? 20_000;
  const parts: string[] = [];
  let size = 0;
  let truncated = false;
  const stack: Frame[] = [{ kind: 'value', value, depth: 0 }];
  const write = (s: string) => {
    parts.push(s);
    size += s.length;
  };
  const newline = (depth: number) => (indent > 0 ? `\n${' '.repeat(indent * depth)}` : '');
  while (stack.length > 0 && size <= maxChars) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      write(frame.text);
      continue;
    }
    const { value: v, depth } = frame;
    if (v === null || typeof v === 'boolean') write(String(v));
    else if (typeof v === 'number') write(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'string') write(JSON.stringify(v.length > maxChars ? `${v.slice(0, maxChars)}…` : v));
    else if (typeof v === 'bigint') write(`${v}n`);
    else if (typeof v !== 'object') write(`"(${typeof v})"`);
    else if (depth >= maxDepth) {
      write(Array.isArray(v) ? '[…]' : '{…}');
      truncated = true;
    } else if (Array.isArray(v)) {
      if (v.length === 0) {
        write('[]');
        continue;
      }
      write('[');
      const frames: Frame[] = [];
      v.forEach((item, i) => {
        frames.push({ kind: 'text', text: (i > 0 ? ',' : '') + newline(depth + 1) });
        frames.push({ kind: 'value', value: item, depth: depth + 1 });
      });
      frames.push({ kind: 'text', text: `${newline(depth)}]` });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]);
    } else {
      let keys: string[];
      try {
        keys = Object.keys(v);
      } catch {
        write('"(unreadable)"');
        continue;
      }
      if (keys.length === 0) {
        write('{}');
        continue;
      }
      write('{');
      const frames: Frame[] = [];
      keys.forEach((key, i) => {
        let item: unknown;
        try {
          item = (v as Record<string, unknown>)[key];
        } catch {
          item = '(unreadable)';
        }
        frames.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${newline(depth + 1)}${JSON.stringify(key)}:${indent > 0 ? ' ' : ''}` });
        frames.push({ kind: 'value', value: item, depth: depth + 1 });
      });
      frames.push({ kind: 'text', text: `${newline(depth)}}` });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]);
    }
  }
  let text = parts.join('');
  if (stack.length > 0 || text.length > maxChars) {
    truncated = true;
    text = `${text.slice(0, maxChars)}…`;
  }
  return { text, truncated };
}

/** Any log value as short text: strings as they are, everything else as bounded compact JSON. */
export function valueText(value: unknown, maxChars = 200): string {
  if (typeof value === 'string') return value;
  return boundedJson(value, { maxChars, maxDepth: 8 }).text;
}
