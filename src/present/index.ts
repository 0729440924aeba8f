// The presentation layer: turns core facts into the words people read — one-line event summaries,
// type labels, token counts, header fields, dates, numbers and sizes in one format, verdict and
// diagnostic wording, and the one definition of a log's diagnostics. Pure TypeScript beside the
// core (no vscode, no DOM, no Node), used by the CLI and the extension host alike.
export { boundedJson, valueText, type BoundedJson, type BoundedJsonOptions } from './bounded-json';
export { coreText, tailWhy, wordsText } from './core-words';
export { countDiagnostics, diagnosticLine, logDiagnostics, presentDiagnostics, type DiagnosticCounts } from './diagnostics';
export { typeIcon, typeLabel } from './event-labels';
export {
  blockSummary,
  eventSummary,
  eventUsage,
  messageSummary,
  readUsage,
  sourceSummary,
  SUMMARY_WIDTH,
  type TokenUsage,
} from './event-summary';
export { fillTemplate, Formatter, phrase, type FormatOptions, type Translate } from './format';
export {
  advisesNewerHarness,
  formatLabel,
  formatValue,
  newerHarnessNote,
  upgradeDiagnostic,
  upgradeLabel,
  upgradeWords,
} from './generation-words';
export { field, headerFields, sessionTitle, type Field } from './header';
export { developerToolChanges, isEmptySystemPrompt, laterEventSummary, offloadTargets, streamEnding } from './later-event-summary';
export { boundedText, clipTo, neutraliseBidi, oneLine, terminalSafe, type Bounded } from './text';
export { liveState, liveText, type FollowWord, quoteDsh, stillReadable, verdictWords, type LiveWord, type VerdictWords } from './verdict';
