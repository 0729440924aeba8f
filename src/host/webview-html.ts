// The HTML shell of the session webview: a strict Content-Security-Policy with a fresh nonce, the
// bundle and stylesheet through asWebviewUri, and nothing else. All content is drawn by the bundle
// from typed messages; no session data is ever put into this HTML.
import * as vscode from 'vscode';
import { displayLanguage } from './webview-strings';

/** The only folders the webview may load from: the built bundles and the static media. */
export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: webviewRoots(extensionUri) };
}

export function sessionWebviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(18))));
  const asset = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource} data:`,
    // Web components style themselves with constructed stylesheets, which CSP does not restrict;
    // <style> elements need the nonce, <link> the webview source.
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${displayLanguage()}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="csp-nonce" content="${nonce}">
<link rel="stylesheet" href="${asset('dist', 'codicons', 'codicon.css')}">
<link rel="stylesheet" href="${asset('media', 'session.css')}">
<link rel="stylesheet" href="${asset('media', 'session-generations.css')}">
<title>${escapeText(title)}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="muted">Starting…</p></main>
<script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
}

function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
