// Fork-generated results (spec §5 "New in v4", fork results): when a fork's seed cuts through an open
// turn, each call that never started gets a TOOL_NOT_STARTED tool-role result with the id
// `forked-tool-result-<callId>-<seq>`. An appended one carries its own seq in the id and cites
// nothing; a later replacement of it keeps the original id and cites exactly that result.
import { SessionFormatError } from '../../errors';
import { isJsonObject } from '../../json';

const FORKED_PREFIX = 'forked-tool-result-';
const CANONICAL_INTEGER = /^(0|[1-9]\d*)$/;

/** Throws unless a `tool/result` whose id claims to be a fork's not-started result is exactly one. */
export function assertForkResultIdentity(row: unknown): void {
  if (!isJsonObject(row) || row.type !== 'tool/result' || !isJsonObject(row.data)) return;
  const { error, message } = row.data;
  if (!isJsonObject(error) || error.code !== 'TOOL_NOT_STARTED') return;
  if (!isJsonObject(message) || typeof message.id !== 'string' || !message.id.startsWith(FORKED_PREFIX)) return;
  const source = message.source;
  const callId = isJsonObject(source) ? source.callId : undefined;
  const prefix = `${FORKED_PREFIX}${String(callId)}-`;
  const suffix = message.id.slice(prefix.length);
  const suffixSeq = Number(suffix);
  const operation = row.surfaceOp;
  const replacement = isJsonObject(operation) && operation.op === 'replace';
  const sources = row.sourceEventSeqs;
  const content = message.content;
  const text: unknown = Array.isArray(content) && content.length === 1 ? content[0] : undefined;
  const identityHolds =
    typeof callId === 'string' &&
    message.id.startsWith(prefix) &&
    CANONICAL_INTEGER.test(suffix) &&
    Number.isSafeInteger(suffixSeq) &&
    (replacement ? typeof row.seq === 'number' && suffixSeq < row.seq : suffixSeq === row.seq);
  const placementHolds = replacement
    ? Array.isArray(sources) && sources.length === 1 && sources[0] === suffixSeq
    : sources === undefined && operation === 'append';
  const resultHolds =
    error.name === 'ToolNotStartedError' &&
    message.role === 'tool' &&
    message.isError === true &&
    message.toolCallId === callId &&
    isJsonObject(source) &&
    source.kind === 'tool' &&
    isJsonObject(text) &&
    text.type === 'text' &&
    typeof text.text === 'string';
  if (!identityHolds || !placementHolds || !resultHolds) throw new SessionFormatError('invalid V4 not-started fork result');
}
