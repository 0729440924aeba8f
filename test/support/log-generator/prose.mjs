// The seeded material of the realistic logs: a small PRNG and the prose, prompts, stream tokens and
// ids drawn from it. Both realistic generators (v0 and v4) draw from one Prose, so the same seed gives
// the same phrases, prompts and ids in either format.

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    hex: (n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(next() * 16)];
      return s;
    },
  };
}

const WORDS = (
  'the a to of and in is it that for on with as this file tool result run read write edit test check output ' +
  'command value line error user step turn model session log event chunk surface compaction summary request header ' +
  'function return const let if else while loop array object string number buffer frame stream parse decode encode ' +
  'verify report change update patch diff build bundle module import export type interface class method field index'
).split(' ');
export const FILES = [
  'src/index.ts',
  'src/core/log.ts',
  'README.md',
  'package.json',
  'test/log.test.ts',
  'a.txt',
  'b.txt',
  'docs/notes.md',
];

export class Prose {
  constructor(seed) {
    this.rnd = prng(seed);
    this.phrases = [];
    for (let i = 0; i < 300; i++) {
      const phrase = [];
      for (let k = this.rnd.int(4, 12); k > 0; k--) phrase.push(this.rnd.pick(WORDS));
      this.phrases.push(phrase);
    }
  }

  /**
   * n words of prose. Mostly whole phrases from a fixed pool (agents repeat themselves, and tool output
   * repeats across turns), so the text compresses about as well as real logs do.
   */
  words(lo, hi) {
    const n = this.rnd.int(lo, hi);
    const out = [];
    while (out.length < n) {
      if (this.rnd.chance(0.85)) out.push(...this.rnd.pick(this.phrases));
      else out.push(this.rnd.pick(WORDS));
    }
    out.length = n;
    return out;
  }

  reasoning() {
    return { type: 'reasoning', text: this.words(10, 50).join(' ') + '.' };
  }

  text(lo = 8, hi = 60) {
    const w = this.words(lo, hi);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return { type: 'text', text: w.join(' ') + '.' };
  }

  /**
   * Splits text into stream deltas the way a model streams tokens: deterministically (the same text
   * always gives the same tokens), short words joined, long words in pieces.
   */
  tokens(text) {
    const out = [];
    let token = '';
    for (const piece of text.match(/\s*[^\s]*/g)) {
      for (let p = 0; p < piece.length; p += 10) {
        token += piece.slice(p, p + 10);
        if (token.length >= 5) {
          out.push(token);
          token = '';
        }
      }
    }
    if (token || !out.length) out.push(token);
    return out;
  }

  /** A user prompt of one of the kinds the real dsh fixtures show; `kind` says which turn answers it. */
  prompt() {
    const kind = this.rnd.next();
    const shout = () => this.words(1, 1)[0].toUpperCase();
    if (kind < 0.15)
      return {
        kind: 'code',
        text: `Using ONE run_code program: call the bash tool twice — exactly \`echo ${shout()}_ONE\` then exactly \`echo ${shout()}_TWO\`. Return the two outputs joined with a plus sign. Reply with that joined string only and stop.`,
      };
    if (kind < 0.35)
      return {
        kind: 'bash',
        text: `Use the bash tool to run exactly: echo ${shout()}${this.rnd.int(1, 999)}. Report the tool result you got back verbatim, then stop.`,
      };
    if (kind < 0.55)
      return {
        kind: 'read',
        text: `Use the read tool twice in the same assistant message: read ${this.rnd.pick(FILES)} and ${this.rnd.pick(FILES)}. Then reply DONE.`,
      };
    if (kind < 0.8)
      return {
        kind: 'edit',
        text: `Open ${this.rnd.pick(FILES)}, ${this.words(6, 20).join(' ')}, then run the tests and summarize what changed.`,
      };
    return { kind: 'chat', text: `${this.text(10, 40).text} Explain briefly.` };
  }

  /** A message or compaction id shaped like dsh's (a version-4 UUID). */
  id() {
    const h = this.rnd.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** A tool-call id shaped like the provider's: `call_NN_<20 hex>_<tool>`, NN the call's number mod 100. */
  callId(n, name) {
    return `call_${String(n % 100).padStart(2, '0')}_${this.rnd.hex(20)}_${name}`;
  }
}
