// The host's side of the protocol's requests: one function per method, over one loaded log. The map is
// typed by the protocol's request table, so each handler takes exactly its method's params and returns
// its result; a seq beyond the log is refused with `outOfRange`, a search no longer kept with
// `unknownSearch` (both RequestErrors, whose codes travel in the response).
import { answerRequest, isRequestMessage, refuseRequest, RequestError, type RequestHandlers, type ResponseMessage } from '../../protocol';
import { diffAsOf, surfaceAsOf } from './as-of';
import { shadowBrackets } from './brackets';
import { eventDetail, problemView } from './detail';
import { overview } from './overview';
import { rowWindow } from './rows';
import type { SearchProgress } from './search';
import type { SessionTimeline } from './session-timeline';

export function requestHandlers(t: SessionTimeline, progress: (p: SearchProgress) => void): RequestHandlers {
  const detailsOf = (seq: number) => t.lastDiagnosticState().bySeq.get(seq) ?? [];
  const kept = <T>(searchId: number, out: T | undefined): T => {
    if (out === undefined) throw new RequestError('unknownSearch', `search ${searchId} is no longer kept`);
    return out;
  };
  return {
    summary: () => t.summary(),
    problems: ({ start, count }) => {
      const list = t.diagnostics().list;
      return { start, total: list.length, problems: list.slice(start, start + count).map(problemView) };
    },
    rows: ({ order, start, count, filter }) => rowWindow(t.rowContext(), order, start, count, filter),
    rowOf: ({ order, seq, filter }) => {
      const list = t.lists.list(order, filter);
      const index = list.rowOf(seq);
      return index === undefined ? { total: list.length } : { index, total: list.length };
    },
    eventDetail: ({ seq }) => {
      t.checkSeq(seq);
      return eventDetail(t.log, t.index, t.fmt, seq, detailsOf(seq), t.laterLinks());
    },
    search: (query) => t.search.run(t.log, t.lists.list(query.order, query.filter), query, progress),
    cancelSearch: ({ searchId }) => ({ cancelled: t.search.cancel(searchId) }),
    searchMatches: ({ searchId, start, count }) => kept(searchId, t.search.matches(searchId, start, count)),
    searchStep: ({ searchId, fromRow, direction }) => kept(searchId, t.search.step(searchId, fromRow, direction)),
    surfaceAsOf: ({ seq, start, count }) => {
      t.checkSeq(seq);
      return surfaceAsOf(t.log, t.index, t.fmt, seq, start, count);
    },
    diffAsOf: ({ fromSeq, toSeq }) => {
      t.checkSeq(fromSeq);
      t.checkSeq(toSeq);
      return diffAsOf(t.log, t.index, t.fmt, fromSeq, toSeq);
    },
    overview: ({ buckets }) => overview(t.log, t.index, buckets, t.lastDiagnosticState().worstBySeq),
    timeSpans: ({ from, to, maxSpans }) => t.spanIndex().window(from, to, maxSpans),
    usage: ({ level, start, count }) => t.spanIndex().usage(level, start, count),
    shadowBrackets: () => ({ brackets: shadowBrackets(t.log, t.fmt) }),
    revealInTextEditor: async ({ seq, line }) => {
      if (seq !== undefined) {
        t.checkSeq(seq);
        line = t.log.place(seq)?.line;
      }
      return { opened: line !== undefined && (await t.host.reveal(line)) };
    },
    reload: () => {
      t.host.reload();
      return { reloading: true };
    },
    crashReview: () => t.crashReview(),
    repairAction: async ({ action }) => ({ started: t.host.runRepairAction ? await t.host.runRepairAction(action) : false }),
    lineage: async () => ({ children: t.host.childSessions ? await t.host.childSessions() : 0 }),
    openLineage: async ({ to }) => ({ opened: t.host.openLineage ? await t.host.openLineage(to) : false }),
    openSession: async ({ id }) => ({ opened: t.host.openSession ? await t.host.openSession(id) : false }),
  };
}

/**
 * Answers one message from the webview: a valid request through its handler; a request with bad
 * params (it has an id and names a method) with `badRequest`; anything else not at all.
 */
export async function handleRequest(
  t: SessionTimeline,
  message: unknown,
  progress: (p: SearchProgress) => void,
): Promise<ResponseMessage | undefined> {
  if (!isRequestMessage(message)) return refuseRequest(message, 'badRequest', (method) => `bad params for ${method}`);
  return answerRequest(requestHandlers(t, progress), message, () => t.generation);
}
