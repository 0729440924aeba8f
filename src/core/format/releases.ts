// Which dsh releases write each log generation (spec v1–v4 §0): facts a view shows beside a log's
// format, so a user knows which dsh wrote a file and which dsh reads it.

export interface GenerationRelease {
  version: number;
  /** The dsh releases whose writer produces this generation. */
  writers: string;
  /** False for a generation no released dsh wrote (v1 existed only between releases). */
  released: boolean;
}

const RELEASES: readonly GenerationRelease[] = [
  { version: 0, writers: 'dsh 0.1.0–0.1.2', released: true },
  { version: 1, writers: 'no released dsh (between 0.1.2 and 0.1.3)', released: false },
  { version: 2, writers: 'dsh 0.1.3–0.1.4', released: true },
  { version: 3, writers: 'dsh 0.1.5–0.1.6', released: true },
  { version: 4, writers: 'dsh 0.1.7 and 0.2.x', released: true },
];

/** The releases that write generation `version`, or undefined for a version no dsh has written. */
export function generationRelease(version: number | null | undefined): GenerationRelease | undefined {
  return RELEASES.find((release) => release.version === version);
}
