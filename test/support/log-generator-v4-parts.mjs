// The fixed material of the v4 log generator (log-generator-v4.mjs): the route, the system prompts,
// the request tools (one deferred), dsh's fork-closer texts and checkpoint preamble, and dsh's v2+
// range encoding of sourceEventSeqs.
export const PROVIDER = 'deepseek-official';
export const MODEL = 'deepseek-v4-flash';
export const MODEL_SOURCE = { kind: 'model', provider: PROVIDER, model: MODEL };
export const SYSTEM_PROMPTS = [
  'You are an AI agent powered by DeepSeek Harness.\n\nVerify your work by running the code or tests. Keep answers brief and factual.',
  'You are an AI agent powered by DeepSeek Harness.\n\nPlan before editing; read a file before you change it; report what you ran.',
];
export const TOOLS = [
  {
    name: 'bash',
    description: 'Execute a bash command and return its output.',
    parameters: schema({ command: 'string', description: 'string' }),
  },
  { name: 'read', description: 'Read a text file with line numbers.', parameters: schema({ file_path: 'string', offset: 'number' }) },
  {
    name: 'edit',
    description: 'Replace one exact string in a file.',
    parameters: schema({ file_path: 'string', old_string: 'string', new_string: 'string' }),
  },
  { name: 'run_code', description: 'Run a program that may call the other tools.', parameters: schema({ code: 'string' }) },
  { name: 'web_fetch', description: 'Fetch a URL and return its text.', parameters: schema({ url: 'string' }), deferLoading: true },
];
export const FORK_TEXT = {
  started:
    'The history inherited by this branch records this tool call starting but does not include its result. The parent session may have completed it after the fork point. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
  notStarted:
    'The history inherited by this branch has no record of this tool call starting. The parent session may have executed it after the fork point. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
};
export const CHECKPOINT_PREAMBLE =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context. ' +
  'Treat the captured context as established background and build on it without restating it. ' +
  'Continue the task directly from the messages that follow, without acknowledging this checkpoint.\n\n<compacted-summary>';

function schema(properties) {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([k, t]) => [k, { type: t }])),
    required: [Object.keys(properties)[0]],
  };
}

/** Runs of three or more consecutive seqs written as [start, end], as dsh's v2+ encoder writes them. */
export function rangeEncoded(seqs) {
  if (seqs.some((value, i) => i > 0 && value <= seqs[i - 1])) return [...seqs];
  const out = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
    if (j - i >= 2) out.push([seqs[i], seqs[j]]);
    else for (let k = i; k <= j; k++) out.push(seqs[k]);
    i = j + 1;
  }
  return out;
}
