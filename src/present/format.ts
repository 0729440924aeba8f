// Numbers, sizes, dates and durations in one format for one display language, and the words of the
// presentation layer in that language. The host passes VS Code's display language
// (`vscode.env.language`) and `vscode.l10n.t` as the translator; the CLI keeps the English default.
// Tests pass a time zone so their expectations do not depend on the machine.
//
// Every message is an English template with {0}, {1}… placeholders, the convention of vscode.l10n.t,
// so the English text is the key of l10n/bundle.l10n*.json. scripts/l10n-bundle.mjs collects the
// literal templates of `.t(`, `.counted(`, `.plural(` and `phrase(` calls.

/** Times before 2000-01-01 are not plausible timestamps of a dsh log: shown as the number written. */
const EARLIEST_PLAUSIBLE_MS = Date.UTC(2000, 0, 1);
/** …and neither are times after 2200. */
const LATEST_PLAUSIBLE_MS = Date.UTC(2200, 0, 1);

/** Translates an English template and fills its {0}, {1}… (vscode.l10n.t has this shape). */
export type Translate = (message: string, ...args: (string | number)[]) => string;

export interface FormatOptions {
  /** A BCP 47 tag; unknown or malformed tags fall back to `en`. */
  locale?: string;
  /** An IANA time zone; the machine's own when absent. */
  timeZone?: string;
  /** The display language's words; English (the template itself) when absent. */
  translate?: Translate;
}

/** Fills {0}, {1}… of a template; a placeholder without an argument stays as written. */
export function fillTemplate(message: string, args: readonly (string | number)[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : whole));
}

/**
 * Marks an English message kept in a table and translated where it is shown (`Formatter.t`), so
 * that scripts/l10n-bundle.mjs finds it.
 */
export function phrase<T extends string>(english: T): T {
  return english;
}

function supportedLocale(locale: string | undefined): string {
  if (!locale) return 'en';
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale])[0] ?? 'en';
  } catch {
    return 'en';
  }
}

export class Formatter {
  readonly locale: string;
  private readonly timeZone: string | undefined;
  private readonly translate: Translate | undefined;
  // The engine's formatters are made when first used: making one loads the language's data, which
  // costs a short-lived CLI process tens of milliseconds even when it prints no number or date.
  private integerFormat: Intl.NumberFormat | undefined;
  private decimal1Format: Intl.NumberFormat | undefined;
  private dateTimeFormat: Intl.DateTimeFormat | undefined;
  private timeFormat: Intl.DateTimeFormat | undefined;
  private percentFormatter: Intl.NumberFormat | undefined;

  constructor(options: FormatOptions = {}) {
    this.locale = supportedLocale(options.locale);
    this.translate = options.translate;
    this.timeZone = options.timeZone;
  }

  private get integer(): Intl.NumberFormat {
    return (this.integerFormat ??= new Intl.NumberFormat(this.locale, { maximumFractionDigits: 0 }));
  }

  private get decimal1(): Intl.NumberFormat {
    return (this.decimal1Format ??= new Intl.NumberFormat(this.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
  }

  private get percentFormat(): Intl.NumberFormat {
    return (this.percentFormatter ??= new Intl.NumberFormat(this.locale, { style: 'percent', maximumFractionDigits: 0 }));
  }

  /** One date-time format everywhere: the date, then a 24-hour or 12-hour time as the language has it. */
  private get dateTime(): Intl.DateTimeFormat {
    return (this.dateTimeFormat ??= new Intl.DateTimeFormat(this.locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone: this.timeZone,
      timeZoneName: 'short',
    }));
  }

  private get time(): Intl.DateTimeFormat {
    return (this.timeFormat ??= new Intl.DateTimeFormat(this.locale, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone: this.timeZone,
    }));
  }

  /** `message` (an English template) in the display language, with {0}, {1}… filled in. */
  t(message: string, ...args: (string | number)[]): string {
    return this.translate ? this.translate(message, ...args) : fillTemplate(message, args);
  }

  /**
   * A whole message that depends on a count: English has a form for one and a form for any other
   * count (`one` and `other`, both translated as they stand; a language without plural forms gives
   * both the same translation). `args` fill {0}, {1}…
   */
  plural(n: number, one: string, other: string, ...args: (string | number)[]): string {
    return this.t(n === 1 ? one : other, ...args);
  }

  /** `plural` with the count, formatted, as {0} and `args` from {1} on: "1 event", "2,854 events". */
  counted(n: number, one: string, other: string, ...args: (string | number)[]): string {
    return this.plural(n, one, other, this.count(n), ...args);
  }

  count(n: number): string {
    return Number.isFinite(n) ? this.integer.format(n) : String(n);
  }

  percent(fraction: number): string {
    return this.percentFormat.format(fraction);
  }

  /** Bytes in binary units: "812 B", "4.2 KiB", "28.0 MiB". */
  bytes(n: number): string {
    if (!Number.isFinite(n)) return String(n);
    if (Math.abs(n) < 1024) return `${this.integer.format(n)} B`;
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    let v = n / 1024;
    let u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u += 1;
    }
    return `${Math.abs(v) < 100 ? this.decimal1.format(v) : this.integer.format(v)} ${units[u]}`;
  }

  /** Whether `ms` reads as a moment a dsh log could have been written. */
  isPlausibleTime(ms: unknown): ms is number {
    return typeof ms === 'number' && Number.isFinite(ms) && ms >= EARLIEST_PLAUSIBLE_MS && ms < LATEST_PLAUSIBLE_MS;
  }

  /**
   * A moment as date and time. Values that are no plausible timestamp (0, 800, negative) are shown as
   * written with a note instead of as a 1970 date, so `createdAt: 0` and `createdAt: 800` read alike.
   */
  date(ms: unknown): string {
    if (this.isPlausibleTime(ms)) return this.dateTime.format(ms);
    return this.t('{0} (not a date)', typeof ms === 'number' ? this.count(ms) : String(ms));
  }

  /** The time of day only, for rows of one session. */
  timeOfDay(ms: number): string {
    return this.isPlausibleTime(ms) ? this.time.format(ms) : this.count(ms);
  }

  /** A span of milliseconds: "340 ms", "1.2 s", "3 min 05 s", "2 h 04 min". */
  duration(ms: number): string {
    if (!Number.isFinite(ms)) return String(ms);
    if (ms < 0) return `-${this.duration(-ms)}`;
    if (ms < 1000) return this.t('{0} ms', this.integer.format(ms));
    if (ms < 60_000) return this.t('{0} s', this.decimal1.format(ms / 1000));
    const s = Math.round(ms / 1000);
    if (s < 3600) return this.t('{0} min {1} s', Math.floor(s / 60), String(s % 60).padStart(2, '0'));
    return this.t('{0} h {1} min', this.count(Math.floor(s / 3600)), String(Math.floor((s % 3600) / 60)).padStart(2, '0'));
  }

  /** Tokens, compact above ten thousand: "812 tokens", "12.3k tokens". */
  tokens(n: number): string {
    if (!Number.isFinite(n)) return String(n);
    if (Math.abs(n) < 10_000) return this.t('{0} tokens', this.count(n));
    return this.t('{0}k tokens', this.decimal1.format(n / 1000));
  }
}
