#!/usr/bin/env node
// Launcher for the `session-surface` CLI: the bundle dist/cli.js holds everything it runs (built by
// `npm run build`, and shipped in the npm package).
require('../dist/cli.js').main();
