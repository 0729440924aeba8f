// The fixed material the generated logs carry, as dsh writes it: the model routes, the checkpoint
// preamble, the system prompts and request tools (one deferred, for v4), the runtime-context snapshot,
// and the texts of a fork's closers.

/** The route of the unit tests' hand-built logs (their core tests name it). */
export const TEST_ROUTE = { provider: 'test-provider', model: 'test-model' };
/** The route of the samples and the realistic logs: what the real dsh fixtures use. */
export const DSH_ROUTE = { provider: 'deepseek-official', model: 'deepseek-v4-flash' };

/** The checkpoint's first sentence; dsh's current writer adds CHECKPOINT_GUIDANCE after it. */
export const CHECKPOINT_OPENING =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context.';
export const CHECKPOINT_GUIDANCE =
  ' Treat the captured context as established background and build on it without restating it. ' +
  'Continue the task directly from the messages that follow, without acknowledging this checkpoint.';

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
/** v0 has no deferred tools. */
export const V0_TOOLS = TOOLS.filter((tool) => !tool.deferLoading);

/** The runtime-context snapshot dsh's system-prompt plugin adds to a v0 turn. */
export const RUNTIME_CONTEXT =
  'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n' +
  'Current DSH file policy: danger-full-access. The DSH file sandbox does not restrict file modifications by available operations.\n\n' +
  'Approval prompts are disabled in this session: actions that require approval are rejected automatically — do not request sandbox escalation (do not set `sandbox_permissions`).';

/** What a fork seed writes as the result of a call its inherited history left pending. */
export const FORK_TEXT = {
  started:
    'The history inherited by this branch records this tool call starting but does not include its result. The parent session may have completed it after the fork point. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
  notStarted:
    'The history inherited by this branch has no record of this tool call starting. The parent session may have executed it after the fork point. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
};

function schema(properties) {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([k, t]) => [k, { type: t }])),
    required: [Object.keys(properties)[0]],
  };
}
