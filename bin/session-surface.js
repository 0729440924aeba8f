#!/usr/bin/env node
// Launcher for the `session-surface` CLI; the bundle is built by `npm install` (prepare) or `npm run build`.
require('../dist/cli.js');
