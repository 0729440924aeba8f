// What a hand-built log means, as the LogBuilder keeps it while writing: the expanded events, the
// surface, the replacements, the transcript and the derived messages. It is written from the spec, not
// from the core, so the unit tests compare the core against an independent account instead of against
// itself.

export class LogModel {
  /** Expanded events by seq (packed rows expanded the way spec §1.4 describes). */
  events = [];
  /** Surface nodes in model-visible order. */
  surface = [];
  /** Each replace: its seq, the endpoints it named and the surface nodes it shadowed. */
  replacements = [];
  /** Append-origin surface events in log order (the human transcript). */
  transcript = [];
  /** Line index (0 = header) of each seq. */
  lineOf = [];
  /** Tool calls opened by an assistant message and not yet answered: callId → tool/call seq. */
  callSeqs = new Map();

  /** Learns one event that is now in the log at line index `line`. */
  record(event, line) {
    this.events.push(event);
    this.lineOf.push(line);
    const op = event.surfaceOp;
    if (op === 'append') {
      this.surface.push(event.seq);
      this.transcript.push(event.seq);
    } else if (op && typeof op === 'object' && !Array.isArray(op)) {
      const startIdx = this.surface.indexOf(op.start);
      const endIdx = this.surface.indexOf(op.end);
      if (startIdx < 0 || endIdx < startIdx) throw new Error(`builder: replace [${op.start}..${op.end}] is not a surface range`);
      const shadowedSeqs = this.surface.splice(startIdx, endIdx - startIdx + 1, event.seq);
      this.replacements.push({ seq: event.seq, start: op.start, end: op.end, shadowedSeqs });
    }
    const data = event.data;
    if (event.type === 'assistant/message') {
      for (const block of data.message.content) if (block.type === 'tool-call') this.callSeqs.set(block.id, undefined);
    } else if (event.type === 'tool/call') {
      if (this.callSeqs.has(data.callId)) this.callSeqs.set(data.callId, event.seq);
    } else if (event.type === 'tool/result' && event.surfaceOp === 'append') {
      this.callSeqs.delete(data.message.source.callId);
    }
  }

  /** The messages the model sees, in surface order (spec §4 projection). */
  derivedMessages() {
    const out = [];
    for (const seq of this.surface) {
      const message = deriveMessage(this.events[seq]);
      if (message) out.push(message);
    }
    return out;
  }

  /**
   * Cuts 0..surface.length where the tool-call/result count is zero (spec §6.3), or the surface seq
   * of the first tool/result that drives the count negative (a compaction split a pair).
   */
  balancedCuts() {
    const cuts = [0];
    let open = 0;
    for (const [k, seq] of this.surface.entries()) {
      const event = this.events[seq];
      if (event.type === 'tool/result') open -= 1;
      if (event.type === 'assistant/message') open += event.data.message.content.filter((b) => b.type === 'tool-call').length;
      if (open < 0) return { negativeAt: seq };
      if (open === 0) cuts.push(k + 1);
    }
    return { cuts };
  }
}

/** What the model sees of one event (spec §4), or null. */
export function deriveMessage(event) {
  const data = event.data;
  switch (event.type) {
    case 'user/message':
      return data;
    case 'assistant/message':
      return data.message.content.length === 0 ? null : data.message;
    case 'tool/result':
      return data.message;
    default:
      return null;
  }
}
