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
import * as accArchives from './2026-11-24T20-00-00_acc_archives.js';
import * as accBurstEncoding from './2026-11-24T21-00-00_acc_burst_encoding.js';
import * as fieldRecords from './2026-11-24T20-00-00_field_records.js';
import * as behaviorFilterIndexes from './2026-11-24T21-00-00_behavior_filter_indexes.js';
import * as mediaThumbs from './2026-11-24T22-00-00_media_thumbs.js';
import * as instructionsEvents from './2026-11-24T23-00-00_instructions_events.js';
import * as userLog from './2026-11-25T00-00-00_user_log.js';
import * as fences from './2026-11-25T03-00-00_fences.js';
import * as notices from './2026-11-25T02-30-00_notices.js';
import * as feedback from './2026-11-24T23-40-00_feedback.js';
import * as members from './2026-11-25T04-00-00_members.js';
import * as verificationCodes from './2026-11-25T03-30-00_verification_codes.js';
import * as eventDedupJobLeases from './2026-11-25T02-00-00_event_dedup_job_leases.js';
import * as eventMailCursor from './2026-11-25T04-30-00_event_mail_cursor.js';
import * as qrLogins from './2026-11-25T06-30-00_qr_logins.js';
import * as downloadTasks from './2026-11-25T06-10-00_download_tasks.js';
import * as downloadRowsTotal from './2026-11-25T06-50-00_download_rows_total.js';
import * as shareManagement from './2026-11-25T06-20-00_share_management.js';
import * as userNotices from './2026-11-25T07-00-00_user_notices.js';
import * as fenceCrossingWrites from './2026-11-26T01-00-00_fence_crossing_writes.js';
import * as instructionErrorReason from './2026-11-27T01-00-00_instruction_error_reason.js';
import * as fenceStaging from './2026-12-03T07-30-00_fence_staging.js';
import * as timeZoneChosen from './2026-12-07T14-30-00_time_zone_chosen.js';
import * as archivePastImports from './2026-12-07T15-00-00_archive_past_imports.js';
import * as shareDataPeriod from './2026-12-07T15-00-00_share_data_period.js';
import * as personalTokens from './2026-12-08T00-00-00_personal_tokens.js';

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
  '2026-11-24T20-00-00_acc_archives': accArchives,
  '2026-11-24T21-00-00_acc_burst_encoding': accBurstEncoding,
  '2026-11-24T20-00-00_field_records': fieldRecords,
  '2026-11-24T21-00-00_behavior_filter_indexes': behaviorFilterIndexes,
  '2026-11-24T22-00-00_media_thumbs': mediaThumbs,
  '2026-11-24T23-00-00_instructions_events': instructionsEvents,
  '2026-11-25T00-00-00_user_log': userLog,
  '2026-11-25T03-00-00_fences': fences,
  '2026-11-25T02-30-00_notices': notices,
  '2026-11-24T23-40-00_feedback': feedback,
  '2026-11-25T04-00-00_members': members,
  '2026-11-25T03-30-00_verification_codes': verificationCodes,
  '2026-11-25T02-00-00_event_dedup_job_leases': eventDedupJobLeases,
  '2026-11-25T04-30-00_event_mail_cursor': eventMailCursor,
  '2026-11-25T06-30-00_qr_logins': qrLogins,
  '2026-11-25T06-10-00_download_tasks': downloadTasks,
  '2026-11-25T06-50-00_download_rows_total': downloadRowsTotal,
  '2026-11-25T06-20-00_share_management': shareManagement,
  '2026-11-25T07-00-00_user_notices': userNotices,
  '2026-11-26T01-00-00_fence_crossing_writes': fenceCrossingWrites,
  '2026-11-27T01-00-00_instruction_error_reason': instructionErrorReason,
  '2026-12-03T07-30-00_fence_staging': fenceStaging,
  '2026-12-07T14-30-00_time_zone_chosen': timeZoneChosen,
  '2026-12-07T15-00-00_archive_past_imports': archivePastImports,
  '2026-12-07T15-00-00_share_data_period': shareDataPeriod,
  '2026-12-08T00-00-00_personal_tokens': personalTokens,
};
