#!/usr/bin/env node
// Keeps the host's string bundles in step with the code:
//   node scripts/l10n-bundle.mjs          writes l10n/bundle.l10n.json (every source string of src/ and
//                                         the webview strings table) and reports strings that
//                                         l10n/bundle.l10n.zh-cn.json lacks or no longer uses
//   node scripts/l10n-bundle.mjs --check  writes nothing; exits 1 when either bundle is out of step
// Source strings are the literal messages of vscode.l10n.t(…) and of the presentation layer's
// Formatter (fmt.t(…), and both forms of fmt.plural(n, one, other) / fmt.counted(…)), the strings
// marked with phrase(…) for tables, and the core's message templates (say(…), src/core/words.ts),
// which the presentation layer translates where a diagnostic or a reason is shown.
// Also checks that package.nls.zh-cn.json has exactly the keys of package.nls.json.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = dirname(dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes('--check');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

/** The text of a JavaScript string literal's body ('…', "…" or `…`), escapes resolved. */
function literalText(body) {
  return JSON.parse('"' + body.replace(/\\'/g, "'").replace(/\\"/g, '"').replace(/"/g, '\\"').replace(/\\`/g, '`') + '"');
}

/** Which arguments of a call are messages: `.t(message, …)`, `.plural(n, one, other, …)`, `phrase(message)`, `say(template, …)`. */
const MESSAGE_ARGS = { t: [0], plural: [1, 2], counted: [1, 2], phrase: [0], say: [0] };
const CALL = /(?:\.(t|plural|counted)|\b(phrase|say))\(/g;

/** The top-level arguments of the call whose "(" is at `open`, as source text. */
function callArguments(text, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"' || c === '`') {
      // Skips the literal (a template's ${…} may hold quotes and braces: followed by depth).
      for (i++; i < text.length && text[i] !== c; i++) {
        if (text[i] === '\\') i++;
        else if (c === '`' && text[i] === '$' && text[i + 1] === '{') {
          let braces = 1;
          for (i += 2; i < text.length && braces > 0; i++) braces += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
          i--;
        }
      }
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        args.push(text.slice(start, i));
        return args;
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return args;
}

/** The messages of a file: the literal ('…', "…" or `…` without ${}) message arguments of its calls. */
function sourceStrings(text) {
  const found = [];
  for (const m of text.matchAll(CALL)) {
    const args = callArguments(text, m.index + m[0].length - 1);
    for (const i of MESSAGE_ARGS[m[1] ?? m[2]]) {
      const literal = /^\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1\s*$/.exec(args[i] ?? '');
      if (!literal || (literal[1] === '`' && literal[2].includes('${'))) continue;
      found.push(literalText(literal[2]));
    }
  }
  return found;
}

const strings = new Set();
for (const file of files(join(repo, 'src'))) for (const s of sourceStrings(readFileSync(file, 'utf8'))) strings.add(s);
// The webview's strings: the table the host translates and sends (src/protocol/webview-strings.ts).
const table = join(repo, 'src', 'protocol', 'webview-strings.ts');
if (existsSync(table)) {
  const text = readFileSync(table, 'utf8');
  const body = text.slice(text.indexOf('['), text.lastIndexOf(']'));
  // Single-quoted, or double-quoted where the text holds an apostrophe (the formatter's choice).
  for (const m of body.matchAll(/(['"])((?:\\.|(?!\1)[^\\])*)\1/g)) strings.add(literalText(m[2]));
}

const sorted = [...strings].sort();
const english = Object.fromEntries(sorted.map((s) => [s, s]));
const bundleFile = join(repo, 'l10n', 'bundle.l10n.json');
const current = existsSync(bundleFile) ? readFileSync(bundleFile, 'utf8') : '';
const next = JSON.stringify(english, null, 2) + '\n';
let ok = true;
if (current !== next) {
  if (check) {
    console.error('l10n/bundle.l10n.json is out of date: run node scripts/l10n-bundle.mjs');
    ok = false;
  } else {
    writeFileSync(bundleFile, next);
    console.log(`wrote ${bundleFile} (${sorted.length} strings)`);
  }
}
const zh = JSON.parse(readFileSync(join(repo, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'));
const missing = sorted.filter((s) => !(s in zh));
const unused = Object.keys(zh).filter((s) => !strings.has(s));
if (missing.length) {
  ok = false;
  console.error(`bundle.l10n.zh-cn.json lacks ${missing.length}:\n${missing.map((s) => `  ${JSON.stringify(s)}`).join('\n')}`);
}
if (unused.length) {
  ok = false;
  console.error(`bundle.l10n.zh-cn.json has ${unused.length} unused:\n${unused.map((s) => `  ${JSON.stringify(s)}`).join('\n')}`);
}
const nls = Object.keys(JSON.parse(readFileSync(join(repo, 'package.nls.json'), 'utf8'))).sort();
const nlsZh = Object.keys(JSON.parse(readFileSync(join(repo, 'package.nls.zh-cn.json'), 'utf8'))).sort();
if (JSON.stringify(nls) !== JSON.stringify(nlsZh)) {
  ok = false;
  console.error(
    `package.nls.zh-cn.json keys differ from package.nls.json: ${nls
      .filter((k) => !nlsZh.includes(k))
      .concat(nlsZh.filter((k) => !nls.includes(k)))
      .join(', ')}`,
  );
}
const pkg = readFileSync(join(repo, 'package.json'), 'utf8');
const unknownKeys = [...pkg.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]).filter((k) => !nls.includes(k));
if (unknownKeys.length) {
  ok = false;
  console.error(`package.json uses keys package.nls.json lacks: ${unknownKeys.join(', ')}`);
}
process.exit(ok ? 0 : 1);
