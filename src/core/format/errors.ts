// dsh's two error classes of the format layer. Their names appear in verdicts (`errorName`), so
// they are dsh's names exactly.

/** A durable artifact that cannot be read, migrated or restored losslessly. */
export class SessionFormatError extends Error {
  override name: string = 'SessionFormatError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message);
    if (options && 'cause' in options) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** A readable artifact that no supported migration can carry to the target generation. */
export class SessionFormatUnsupportedMigrationError extends SessionFormatError {
  override name: string = 'SessionFormatUnsupportedMigrationError';
}
