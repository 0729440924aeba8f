// The little of the `vscode` API that the host's document edits use, for benchmarks that run host code
// outside VS Code (bench/authoring.mjs): events, l10n's placeholder filling, a trusted workspace, file
// URIs, and dialogs that answer at once (a warning's first button, e.g. "Append"; nothing otherwise).
export class EventEmitter {
  listeners = [];
  event = (listener) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  fire(value) {
    for (const listener of this.listeners) listener(value);
  }
  dispose() {
    this.listeners = [];
  }
}

export const l10n = {
  t: (message, ...args) => String(message).replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)])),
};

export const env = { language: 'en' };

export const workspace = { isTrusted: true };

export const window = {
  showInformationMessage: async () => undefined,
  showWarningMessage: async (_message, _options, ...buttons) => buttons[0],
};

export const Uri = {
  file: (path) => ({ scheme: 'file', fsPath: path, path, toString: () => `file://${path}` }),
};
