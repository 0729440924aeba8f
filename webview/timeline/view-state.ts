// What survives hiding and showing the tab: VS Code keeps the object given to setState while the
// webview is hidden or reloaded. Only small view facts go in (never session data).
import { getState, setState } from '../vscodeApi';

export type Order = 'surface' | 'log' | 'transcript';

export interface TimelineViewState {
  order: Order;
  /** The selected event, by seq (stable across appends, unlike an index). */
  selectedSeq?: number;
  /** The first visible row of each order, by seq. */
  topSeq?: number;
  filter: string[];
  inspectorOpen: boolean;
  following: boolean;
}

const DEFAULTS: TimelineViewState = { order: 'log', filter: [], inspectorOpen: true, following: true };

export function loadViewState(): TimelineViewState {
  const saved = getState() as Partial<TimelineViewState> | undefined;
  if (!saved || typeof saved !== 'object') return { ...DEFAULTS };
  const order: Order = saved.order === 'surface' || saved.order === 'transcript' ? saved.order : 'log';
  return {
    order,
    selectedSeq: Number.isSafeInteger(saved.selectedSeq) ? saved.selectedSeq : undefined,
    topSeq: Number.isSafeInteger(saved.topSeq) ? saved.topSeq : undefined,
    filter: Array.isArray(saved.filter) ? saved.filter.filter((t): t is string => typeof t === 'string') : [],
    inspectorOpen: saved.inspectorOpen !== false,
    following: saved.following !== false,
  };
}

let pending: ReturnType<typeof setTimeout> | undefined;
/** Saves at most a few times a second: scrolling changes topSeq on every frame. */
export function saveViewState(state: TimelineViewState): void {
  if (pending) clearTimeout(pending);
  pending = setTimeout(() => {
    pending = undefined;
    setState({ ...state });
  }, 150);
}
