// Types of make-sample-sessions.mjs (the committed sample sessions' generator).
export function sampleSessions(): { samples: Record<string, string[]>; errorLines: { surfaceLine: number; idsLine: number } };
