// The kinds of turn the realistic v0 generator (scale-v0.mjs) writes after the prompt, each modelled on
// a real dsh fixture (shared/fixtures/dsh-real). Each takes the generator `g`, whose step 1 is open, and
// closes its last step.
import { FILES } from './prose.mjs';
import * as shape from './shapes.mjs';

/** packed-chunk-rows fixture: reasoning + bash call (sometimes blocked by a hook), then the report. */
export function bashTurn(g, p) {
  const word = p.text.match(/echo (\S+)\./)[1];
  const call = g.callBlock('bash', { command: `echo ${word}`, description: `Run echo ${word}` });
  g.assistant([g.prose.reasoning(), call], 'tool-calls');
  const callSeq = g.toolCall(call);
  const blocked = g.rnd.chance(0.2);
  if (blocked || g.rnd.chance(0.3)) {
    g.emit('hook/invoked', shape.hookInvoked(g.turn, 'bash'));
    const refusal = { decision: 'block', exitCode: 2, stderrSummary: 'bash is disabled by policy in this session' };
    const outcome = blocked ? refusal : { decision: 'allow', exitCode: 0 };
    g.emit('hook/result', shape.hookResult(g.turn, { ...outcome, durationMs: g.rnd.int(1, 9) }));
  }
  g.toolResult(call, callSeq, blocked ? 'Error: bash is disabled by policy in this session' : `${word}\n`, { isError: blocked });
  g.stepEnd();
  g.stepStart();
  g.assistant([g.prose.reasoning(), g.prose.text(10, 50)], 'stop');
  g.stepEnd();
}

/** code-mode fixture: one run_code call whose program dispatches two bash sub-calls. */
export function codeTurn(g, p) {
  const words = [...p.text.matchAll(/echo (\w+)/g)].map((m) => m[1]);
  const program =
    `\nconst out1 = await tools.bash({command: "echo ${words[0]}", description: "Print ${words[0]}"});\n` +
    `const out2 = await tools.bash({command: "echo ${words[1]}", description: "Print ${words[1]}"});\n` +
    'console.log("captured output");\nreturn out1.stdout.text.trim() + "+" + out2.stdout.text.trim();\n';
  const call = g.callBlock('run_code', { code: program, description: 'Run two echo commands and join outputs' });
  g.assistant([g.prose.reasoning(), call], 'tool-calls');
  const callSeq = g.toolCall(call);
  words.forEach((w, k) => {
    const sub = shape.subCall(call.id, 'code', k + 1, { command: `echo ${w}`, description: `Print ${w}` });
    g.emit('tool/code-dispatch-start', sub);
    g.emit('tool/code-dispatch', shape.subCallDone(sub, `${w}\n`));
  });
  g.toolResult(call, callSeq, `captured output\n\nReturn value:\n${words.join('+')}`);
  g.stepEnd();
  g.stepStart();
  g.assistant([g.prose.reasoning(), { type: 'text', text: words.join('+') }], 'stop');
  g.stepEnd();
}

/** parallel-tool-calls fixture: two read calls in one message, two results, then DONE. */
export function readTurn(g) {
  const calls = [0, 1].map(() => {
    const path = g.rnd.pick(FILES);
    return g.callBlock('read', { file_path: path });
  });
  g.assistant(calls, 'tool-calls');
  const seqs = calls.map((c) => g.toolCall(c));
  calls.forEach((c, k) => {
    const path = JSON.parse(c.arguments).file_path;
    const n = g.rnd.int(2, 16);
    const lines = [];
    for (let i = 1; i <= n; i++) lines.push({ number: i, text: g.prose.words(2, 10).join(' ') });
    const body = lines.map((l) => `${l.number}: ${l.text}`).join('\n');
    g.toolResult(
      c,
      seqs[k],
      `<path>/tmp/bench-cwd/${path}</path>\n<type>file</type>\n<content>\n${body}\n\n(End of file - total ${n} lines)\n</content>`,
      { meta: { path: `/tmp/bench-cwd/${path}`, offset: 1, lines, totalLines: n } },
    );
  });
  g.stepEnd();
  g.stepStart();
  g.assistant([{ type: 'text', text: 'DONE' }], 'stop');
  g.stepEnd();
}

/** A longer agentic turn: read, edit, test, then a summary. */
export function editTurn(g) {
  const path = g.rnd.pick(FILES);
  const plan = [
    { name: 'read', args: { file_path: path } },
    { name: 'edit', args: { file_path: path, old_string: g.prose.words(3, 8).join(' '), new_string: g.prose.words(3, 12).join(' ') } },
    { name: 'bash', args: { command: 'npm test', description: 'Run the tests' } },
  ];
  for (const t of plan.slice(0, g.rnd.int(1, 3))) {
    const call = g.callBlock(t.name, t.args);
    g.assistant(g.rnd.chance(0.7) ? [g.prose.reasoning(), call] : [call], 'tool-calls');
    const callSeq = g.toolCall(call);
    const out =
      t.name === 'bash' ? `> test\n> mocha\n\n  ${g.rnd.int(5, 90)} passing (${g.rnd.int(20, 900)}ms)\n` : g.prose.words(20, 110).join(' ');
    g.toolResult(call, callSeq, out);
    g.stepEnd();
    g.stepStart();
  }
  g.assistant([g.prose.reasoning(), g.prose.text(20, 80)], 'stop');
  g.stepEnd();
}
