// Forks and subagent sessions name their parent in the header (`parentSession`); the Sessions view
// shows them under it. A child whose parent is not in the listing stays at the top level.

export interface LineageNode {
  id: string;
  parentSession?: string;
}

export interface Lineage<T extends LineageNode> {
  /** Entries without a listed parent, in the order given. */
  roots: T[];
  /** Children of each listed id, in the order given. */
  children: Map<string, T[]>;
  /** Entries by id (the first one given wins when an id repeats). */
  byId: Map<string, T>;
}

export function buildLineage<T extends LineageNode>(entries: readonly T[]): Lineage<T> {
  const byId = new Map<string, T>();
  for (const e of entries) if (!byId.has(e.id)) byId.set(e.id, e);
  const roots: T[] = [];
  const children = new Map<string, T[]>();
  for (const e of entries) {
    const parent = e.parentSession;
    // A session that names itself (or a cycle) is listed at the top rather than lost.
    if (parent !== undefined && parent !== e.id && byId.has(parent) && !isAncestor(byId, e.id, parent)) {
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(e);
    } else {
      roots.push(e);
    }
  }
  return { roots, children, byId };
}

/** True when `id` is an ancestor of `start` (following parentSession links), i.e. linking would make a cycle. */
function isAncestor<T extends LineageNode>(byId: Map<string, T>, id: string, start: string): boolean {
  const seen = new Set<string>();
  for (let cur: string | undefined = start; cur !== undefined && !seen.has(cur); cur = byId.get(cur)?.parentSession) {
    if (cur === id) return true;
    seen.add(cur);
  }
  return false;
}
