// What the session editor needs to follow a session's lineage: the Sessions view's catalogue knows the
// children of a session and owns the commands that open a parent or a child. It hands these in once it
// is registered, so an editor opened before (or without) it simply offers no links.
import type * as vscode from 'vscode';
import type { LineageTarget } from '../protocol';

export interface LineageLinks {
  /** How many child sessions of the log at `uri` the sessions folder holds. */
  childCount(uri: vscode.Uri): Promise<number>;
  /** Opens the parent's log or a child's (asking which when several); false when there is none. */
  open(uri: vscode.Uri, to: LineageTarget): Promise<boolean>;
  /** Opens the session with this id (its current generation); false when the catalogue does not hold it. */
  openById(id: string): Promise<boolean>;
}
