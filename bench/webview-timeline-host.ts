// The host side of the webview benchmark: the extension's own request handler (SessionTimeline) over
// a log loaded by the core, without VS Code. Bundled by bench/webview-timeline.mjs.
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { loadSessionFile } from '../src/core';
import { Formatter } from '../src/present';
import { handleRequest } from '../src/host/timeline/request-handlers';
import { SessionTimeline } from '../src/host/timeline/session-timeline';
import { notification, type NotificationMessage, type ResponseMessage } from '../src/protocol';

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
  return {
    timeline,
    loadMs,
    loadedAt: performance.now(),
    events: source.log.eventCount,
    /** Answers a message of the page as the session panel does; search progress goes to `notify`. */
    answer: (message: unknown, notify: (m: NotificationMessage) => void): Promise<ResponseMessage | undefined> =>
      handleRequest(timeline, message, (p) => notify(notification('searchProgress', p))),
    /** The notification a finished load sends. */
    summary: () => notification('summary', { summary: timeline.summary() }),
  };
}
