import type { Migration } from 'kysely';
import * as accounts from './2026-11-22T00-00-00_accounts.js';
import * as devices from './2026-11-22T01-00-00_devices.js';
import * as sharing from './2026-11-22T02-00-00_sharing.js';
import * as trackSegments from './2026-11-22T03-00-00_track_segments.js';
import * as sourceMarks from './2026-11-24T00-00-00_source_marks.js';
import * as sharedState from './2026-11-24T06-10-00_shared_state.js';
import * as movebankImports from './2026-11-24T06-00-00_movebank_imports.js';
import * as sessionKeys from './2026-11-24T06-30-00_session_keys.js';
import * as fixGroupDays from './2026-11-24T07-00-00_fix_group_days.js';

/**
 * Every migration, by its frozen name. Listed here rather than read from disk so that the bundled
 * server carries them; names sort by date, which is the order Kysely applies them in.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T00-00-00_accounts': accounts,
  '2026-11-22T01-00-00_devices': devices,
  '2026-11-22T02-00-00_sharing': sharing,
  '2026-11-22T03-00-00_track_segments': trackSegments,
  '2026-11-24T00-00-00_source_marks': sourceMarks,
  '2026-11-24T06-10-00_shared_state': sharedState,
  '2026-11-24T06-00-00_movebank_imports': movebankImports,
  '2026-11-24T06-30-00_session_keys': sessionKeys,
  '2026-11-24T07-00-00_fix_group_days': fixGroupDays,
};
