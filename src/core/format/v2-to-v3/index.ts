// Released v3: its codec (v2's layout plus v3 row admission), the v2 → v3 edge (the protected system
// head, `{op:'replace', startSeq, endSeq}`, PTC renames), its restore.
export { v3Codec, decodeV3Header, encodeV3Header, encodeV3Event, v3RowAdmission } from './v3-codec';
export { assertV3Header } from './v3-header';
export { admitV3Event, admitStructuralRow, refuseRetiredDispatch } from './v3-admission';
export { v2ToV3Migration, systemMessageId } from './v2-to-v3-migration';
export { restoreV3Artifact } from './v3-restore';
export {
  V3_SURFACE_TYPES,
  FEEDBACK_TYPES,
  RETIRED_DISPATCH_TYPES,
  PTC_DISPATCH_TYPES,
  AUDITED_SOURCE_KINDS,
  AUDITED_CONTENT_KINDS,
  SYSTEM_PROMPT_PLUGIN,
  isRepairMessageId,
} from './v3-vocabulary';
export { generationV3 } from './generation';
