// The host side of the webview benchmark: the extension's own request handler (SessionTimeline) over
// a log loaded by the core, without VS Code. Bundled by bench/webview-timeline.mjs.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { loadSessionFile } from '../src/core';
import { Formatter } from '../src/present';
import { SessionTimeline } from '../src/host/timeline/session-timeline';

export function openTimeline(path: string) {
  const bytes = new Uint8Array(readFileSync(path));
  const started = performance.now();
  const source = loadSessionFile(bytes);
  const loadMs = performance.now() - started;
  const stat = statSync(path);
  const timeline: SessionTimeline = new SessionTimeline(source, 1, new Formatter({ locale: 'en' }), {
    summaryContext: () => ({
      fileName: basename(path),
      filePath: path,
      turns: timeline.index.turns,
      fileBytes: stat.size,
      restrictedMode: false,
      loadMs,
      file: { state: 'following', size: stat.size, mtimeMs: stat.mtimeMs },
      followLiveLogs: true,
    }),
    reveal: async () => true,
    reload: () => {},
    // The file's bytes, for a torn tail's preview (the file as it was read).
    readFileBytes: async () => bytes,
  });
  return { timeline, loadMs, loadedAt: performance.now(), events: source.log.eventCount };
}
