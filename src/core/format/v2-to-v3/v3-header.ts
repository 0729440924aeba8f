// The v3 header has v2's members; only the version differs.
import { SessionFormatError } from '../errors';
import type { LogicalHeader } from '../types';
import { assertV2Header } from '../v1-to-v2/v2-header';

export function assertV3Header(header: LogicalHeader): void {
  if (header.version !== 3) throw new SessionFormatError('expected format v3 header');
  assertV2Header({ ...header, version: 2 });
}
