// Small formatting helpers for numbers, sizes and times shown in the webview.

const integer = new Intl.NumberFormat('en-US');

export function count(n: number): string {
  return integer.format(n);
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/** Epoch milliseconds as an ISO date-time (UTC), or the raw number when it is not a plausible date. */
export function epochMs(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return String(ms);
  return `${new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`;
}

export function percent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}
