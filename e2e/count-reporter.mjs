// A node:test reporter that only counts: passed, failed and skipped tests (not suites), as one JSON
// line at the end. e2e/run.mjs reads it to print the final "e2e: N passed, M failed" line.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, failedNames: [] };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    if (data.details?.type === 'suite') continue;
    if (data.skip !== undefined || data.todo !== undefined) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else {
      counts.failed++;
      counts.failedNames.push(data.name);
    }
  }
  yield JSON.stringify(counts) + '\n';
}
