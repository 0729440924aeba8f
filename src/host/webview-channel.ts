// Notifications from host commands to the session webviews that show a given log (the panels are owned
// by the session editor; this is the one place commands hand them messages).
import * as vscode from 'vscode';
import type { HostNotification } from '../protocol/messages';

export interface WebviewNotification {
  /** The log's URI (string form); every panel showing it receives the message. */
  uri: string;
  message: HostNotification;
}

const emitter = new vscode.EventEmitter<WebviewNotification>();

/** Panels subscribe to this and post the messages meant for their document. */
export const onWebviewNotification = emitter.event;

export function notifyWebviews(uri: vscode.Uri, message: HostNotification): void {
  emitter.fire({ uri: uri.toString(), message });
}
