// The ids of the commands that write a repair, apart from the commands themselves: the session
// document asks for them from the webview's buttons without depending on how they run.
export const CRASH_REPAIR_COMMANDS = {
  apply: 'sessionSurface.applyCrashRepair',
  removeTornTail: 'sessionSurface.removeTornTail',
  closeCompaction: 'sessionSurface.closeInterruptedCompaction',
} as const;
