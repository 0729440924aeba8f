// View commands (surface, derive, repair, provenance): each lives in its own view-*.ts file.
import type { CliCommand } from './registry';
import { surfaceView } from './view-surface';
import { deriveView } from './view-derive';
import { repairView } from './view-repair';
import { provenanceView } from './view-provenance';

export const viewCommands: CliCommand[] = [surfaceView, deriveView, repairView, provenanceView];
