// The contrast of the timeline's icons against the row they are drawn on, as WCAG 2.x defines it for
// graphical objects (1.4.11: at least 3:1). Read in the page: each icon's colour as the browser
// computed it (a glyph's `color`, a dot's fill or ring), and the colour of what is behind it (every
// ancestor's background composited over the page's, as the eye sees it). Plain ESM, no build step.

/** Runs in the webview's frame: one entry per icon drawn in the list, the ghost and pending rows. */
export function measureIconContrast() {
  const parse = (text) => {
    let m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(text);
    if (m) return [Number(m[1]) / 255, Number(m[2]) / 255, Number(m[3]) / 255, m[4] === undefined ? 1 : Number(m[4])];
    m = /^color\(srgb ([-\d.e]+) ([-\d.e]+) ([-\d.e]+)(?: \/ ([\d.]+))?\)$/.exec(text);
    if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
    return undefined;
  };
  const over = (top, bottom) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a)).concat(1);
  };
  const luminance = ([r, g, b]) => {
    const lin = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  /** What is behind `el`: the backgrounds of it and its ancestors, painted bottom up. */
  const backdrop = (el) => {
    const layers = [];
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg && bg[3] > 0) layers.push(bg);
      if (bg && bg[3] >= 1) break;
    }
    let colour = [1, 1, 1, 1];
    for (let i = layers.length - 1; i >= 0; i--) colour = over(layers[i], colour);
    return colour;
  };
  const hex = (c) =>
    '#' +
    c
      .slice(0, 3)
      .map((v) =>
        Math.round(Math.max(0, Math.min(1, v)) * 255)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('');
  const out = [];
  const icons = document.querySelectorAll(
    '#timeline-list .row:not(.placeholder) .codicon, #timeline-list .row:not(.placeholder) .surface-mark, .bracket .codicon, .ghost-row .codicon',
  );
  for (const icon of icons) {
    const style = getComputedStyle(icon);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const row = icon.closest('.row, .bracket-head, .bracket-row, .ghost-row');
    let ink;
    if (icon.classList.contains('surface-mark')) {
      // A filled dot is its background; a hollow one its ring.
      const fill = parse(style.backgroundColor);
      ink = fill && fill[3] > 0 ? fill : parse(style.borderTopColor);
      if (!ink || (ink[3] === 0 && !(fill && fill[3] > 0))) continue; // no dot: log-only rows have none
      if (parseFloat(style.borderTopWidth) === 0 && !(fill && fill[3] > 0)) continue;
    } else ink = parse(style.color);
    if (!ink) continue;
    const behind = backdrop(icon.parentElement);
    const seen = over(ink, behind);
    out.push({
      seq: row?.getAttribute('data-seq') ?? row?.closest('[data-seq]')?.getAttribute('data-seq') ?? '',
      type: row?.getAttribute('data-type') ?? '',
      icon: [...icon.classList].filter((c) => c !== 'codicon').join(' '),
      state: row
        ? [...row.classList]
            .filter((c) => /^(selected|linked|in-range|turn-odd|turn-even|inherited|repair|surface-\w+|sev-\w+|ghost-row)$/.test(c))
            .join(' ')
        : '',
      ink: hex(seen),
      background: hex(behind),
      ratio: Math.round(ratio(seen, behind) * 100) / 100,
    });
  }
  return out;
}
