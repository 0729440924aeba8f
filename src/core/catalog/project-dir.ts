// Where dsh's JSONL backend puts a session: `<root>/<projectDir>/<sessionDir>/session.jsonl[.zstd]`
// (spec §1.1). The project folder name is derived from the header `cwd`; these functions give the same
// name dsh gives, so the Sessions view can tell which sessions belong to the open workspace folder.

const SLUG_MAX = 251;
const KEPT = /[A-Za-z0-9._-]/;

function escapeUnit(code: number): string {
  return '~' + code.toString(16).toUpperCase().padStart(4, '0');
}

/**
 * dsh's cwd slug: each run of `/`, `\` or `:` becomes one `-`; `[A-Za-z0-9._-]` are kept; every other
 * UTF-16 code unit (including `~`) becomes `~` + 4 uppercase hex digits; leading `-` are stripped
 * (empty → `root`); the result is cut to 251 characters.
 */
export function cwdSlug(cwd: string): string {
  let out = '';
  let inSeparatorRun = false;
  for (let i = 0; i < cwd.length; i++) {
    const ch = cwd[i];
    if (ch === '/' || ch === '\\' || ch === ':') {
      if (!inSeparatorRun) out += '-';
      inSeparatorRun = true;
      continue;
    }
    inSeparatorRun = false;
    out += KEPT.test(ch) ? ch : escapeUnit(cwd.charCodeAt(i));
  }
  out = out.replace(/^-+/, '');
  if (out === '') out = 'root';
  return out.slice(0, SLUG_MAX);
}

/** The project folder dsh writes a session with this `cwd` into (`_no-cwd` without one). */
export function projectDirName(cwd: string | undefined): string {
  return cwd === undefined ? '_no-cwd' : `--${cwdSlug(cwd)}--`;
}

/** The session folder name for an id: `[A-Za-z0-9._-]` kept, every other code unit as `~XXXX`. */
export function sessionDirName(id: string): string {
  if (id === '.') return '~002E';
  if (id === '..') return '~002E~002E';
  let out = '';
  for (let i = 0; i < id.length; i++) out += KEPT.test(id[i]) ? id[i] : escapeUnit(id.charCodeAt(i));
  return out;
}

/** True for the transcript file names dsh writes in a session folder (`session.jsonl`, `session.v4.jsonl.zstd`). */
export function isTranscriptName(name: string): boolean {
  return /^session(\.v\d+)?\.jsonl(\.zstd)?$/.test(name);
}

/** The generation of a transcript name: 0 for `session.jsonl`, N for `session.vN.jsonl`. */
export function transcriptGeneration(name: string): number {
  const m = /^session\.v(\d+)\./.exec(name);
  return m ? Number(m[1]) : 0;
}
