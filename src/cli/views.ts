// View commands (surface, derive, repair, provenance) are added here.
import type { CliCommand } from './registry';

export const viewCommands: CliCommand[] = [];
