// The write layer as one object, for a composition root to hand to code that must not import Node
// modules itself (the extension host's modules, which the browser build bundles without Node).
import { saveEdits } from './append-save';
import { applyCrashRepair, readLog } from './crash-repair';
import { completeInterruptedRemoval, removeTornTailFromFile } from './torn-tail-file';
import { nodeFiles } from './node-files';

export const nodeWriteLayer = {
  files: nodeFiles,
  saveEdits,
  applyCrashRepair,
  readLog,
  removeTornTailFromFile,
  completeInterruptedRemoval,
};

export type WriteLayer = typeof nodeWriteLayer;
