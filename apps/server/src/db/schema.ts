import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are epoch milliseconds in every table (integer on SQLite, bigint on PostgreSQL). */
export interface OrganisationTable {
  id: Generated<number>;
  name: string;
  parent_unit: string;
  created_at: number;
  /** 1 for the organisation that owns the sample (experience) devices. */
  is_samples: Generated<number>;
  tree_version: Generated<number>;
}

export interface UserTable {
  id: Generated<number>;
  org_id: number;
  user_name: string;
  /** Lower-cased user name, unique: sign-in is case-insensitive. */
  user_name_key: string;
  email: string | null;
  /** Lower-cased e-mail, unique when present. */
  email_key: string | null;
  phone: string | null;
  telephone_code: string;
  nick_name: string;
  password_hash: string;
  is_primary: number;
  img_url: string;
  fix_tag: string;
  created_at: number;
  updated_at: number;
  /** 1: may sign in; 0: disabled by the organisation's primary user (db/migrations/…_members.ts). */
  enabled: Generated<number>;
  /** 1: the password is a temporary one the primary user set; the next sign-in must change it first. */
  must_change_password: Generated<number>;
  /** The last successful sign-in, epoch ms; null before the first. */
  last_sign_in_at: number | null;
}

export interface UserSettingTable {
  user_id: number;
  lcid: number;
  time_zone: string;
  /** 1 once the user saved a zone in Settings: from then on a sign-in's zone does not replace it. */
  time_zone_chosen: Generated<number>;
  tdt_key: Generated<string>;
  receive_app: Generated<number>;
  receive_email: Generated<number>;
  experience_func: Generated<number>;
}

export interface SessionTable {
  id: Generated<number>;
  /** The session's id on the wire (x-session): random, not secret. */
  public_id: string;
  /**
   * The request-signing key, hex: HMAC-SHA256(token, "wildtrack-request-signing-v1"). The token itself
   * is never stored; this key is what checking a signature needs (docs/api.md).
   */
  signing_key: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
}

export interface SignInFailureTable {
  /** `user:<id>` for an account (whichever name was typed), `name:<lower-cased name>` for a name that is none, so that unknown names lock the same way. */
  account_key: string;
  window_start: number;
  failures: number;
  locked_until: number;
}

/** One live code per purpose and address (db/migrations/…_verification_codes.ts). */
export interface VerificationCodeTable {
  id: Generated<number>;
  purpose: string;
  target: string;
  /** `<salt hex>:<sha256 hex of salt + code>` */
  code_hash: string;
  sent_at: number;
  expires_at: number;
  tries: Generated<number>;
}

export interface SecurityVerificationTable {
  session_id: number;
  verified_until: number;
}

/** A personal access token (db/migrations/…_personal_tokens.ts; contract calls/token.ts): its secret kept as SHA-256 only. */
export interface PersonalTokenTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 hex of the secret (shown once, when made). */
  token_hash: string;
  /** The secret's last characters, for the list. */
  hint: string;
  created_at: number;
  /** When it stops working (epoch ms); null: never. */
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** A QR sign-in code (db/migrations/…_qr_logins.ts; contract calls/qrlogin.ts). */
export interface QrLoginTable {
  id: Generated<number>;
  /** SHA-256 hex of the code the QR shows, and of the ticket the waiting page keeps. */
  code_hash: string;
  ticket_hash: string;
  /** waiting | scanned | confirmed | declined | used */
  status: string;
  /** The confirming user, once confirmed. */
  user_id: number | null;
  ip: string;
  user_agent: string;
  created_at: number;
  expires_at: number;
}

/** A message no gateway took (no SMS_URL, no SMTP_URL): read by the operator with `wildtrack outbox`. */
export interface MessageOutboxTable {
  id: Generated<number>;
  channel: string;
  address: string;
  subject: string;
  text: string;
  created_at: number;
}

export interface ServerKeyTable {
  id: Generated<number>;
  purpose: string;
  public_key: string;
  secret_key: string;
  created_at: number;
}

export interface FolderTable {
  id: Generated<number>;
  org_id: number;
  /** null: directly under the organisation's root (IdStr '-1'). */
  parent_id: number | null;
  name: string;
  created_at: number;
}

export interface DeviceTable {
  id: Generated<number>;
  org_id: number;
  folder_id: number | null;
  imei: string;
  type: number;
  model: Generated<string>;
  species_type: Generated<number>;
  battery_type: Generated<number>;
  sensors: Generated<number>;
  instr_support: Generated<number>;
  caption: string;
  remark_name: Generated<string>;
  description: Generated<string>;
  image: Generated<string>;
  status: number;
  second_level_fix: Generated<number>;
  example: Generated<number>;
  /** The device's ingest secret (HMAC key); needed in clear to verify signatures. */
  secret: string;
  effective_time: number | null;
  failure_time: number | null;
  last_work_time: number | null;
  last_voltage: number | null;
  /** JSON object of extra attributes (e.g. Movebank reference data). */
  attributes: Generated<string>;
  created_at: number;
}

export interface FixTable {
  device_id: number;
  pick_time: number;
  lon: number | null;
  lat: number | null;
  alt: number | null;
  speed: number | null;
  course: number | null;
  temperature: number | null;
  activity: number | null;
  voltage: number | null;
  channel: number | null;
  satellites: number | null;
  hdop: number | null;
  vdop: number | null;
  grade: number | null;
  valid: number;
  tx_time: number | null;
  received_at: number;
  /** The user who marked the fix invalid, or INVALID_BY_SOURCE when the data source (Movebank) did. */
  invalid_by: number | null;
  invalid_at: number | null;
  /** The source's mark when invalid_by is INVALID_BY_SOURCE (e.g. "visible=false"); null otherwise. */
  invalid_reason: string | null;
  extra: string | null;
}

/** invalid_by of a fix the data source marked (Movebank's visible=false, *-outlier=true): no user has id 0. */
export const INVALID_BY_SOURCE = 0;

export interface SensorRecordTable {
  device_id: number;
  kind: number;
  time: number;
  v1: number;
  v2: number | null;
  v3: number | null;
  v4: number | null;
  received_at: number;
}

/** A device's positions of one UTC day, encoded as a protobuf Track (see the migration). */
export interface TrackSegmentTable {
  device_id: number;
  day: number;
  point_count: number;
  data: Uint8Array;
}

export interface TrackSegmentDirtyTable {
  device_id: number;
  day: number;
}

/** A UTC day of a device's averaged fix table, summarised (modules/fix/averaging.ts `summarise`). */
export interface FixGroupDayTable {
  device_id: number;
  day: number;
  group_count: number;
  data: Uint8Array;
}

export interface AccBurstTable {
  device_id: number;
  start_time: number;
  hz: number;
  axes: string;
  sample_count: number;
  samples: Uint8Array;
  /** Empty when encoding is 1 (ODBA computed on read). */
  odba: Uint8Array;
  mean_odba: number;
  calibration: string;
  /** 0: int16 counts and stored ODBA; 1: packed counts (migrations/…_acc_burst_encoding.ts). */
  encoding: Generated<number>;
  received_at: number;
  extra: string | null;
}

/** A daily ACC archive file of a device (db/migrations/…_acc_archives.ts): 0 being built, 1 ready. */
export interface AccArchiveTable {
  id: Generated<number>;
  device_id: number;
  day: number;
  status: number;
  file: string;
  record_count: number;
  file_size: number;
  claimed_at: number;
  created_at: number | null;
}

/** An image record's thumbnail made ahead (db/migrations/…_media_thumbs.ts): 0 claimed, 1 made, 2 not an image. */
export interface MediaThumbTable {
  device_id: number;
  pick_time: number;
  status: number;
  claimed_at: number;
}

export interface MediaRecordTable {
  device_id: number;
  kind: number;
  pick_time: number;
  file: string;
  mime: string;
  size: number;
  lon: number | null;
  lat: number | null;
  alt: number | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  rate: number | null;
  bit_depth: number | null;
  track: number | null;
  received_at: number;
}

export interface JsonDocTable {
  device_id: number;
  updated_at: number;
}

export interface InstructionTable {
  id: Generated<number>;
  device_id: number;
  type: string;
  params: string;
  status: string;
  sender_user_id: number | null;
  send_time: number;
  estimate_execute_time: number | null;
  delivered_at: number | null;
  execute_time: number | null;
  error_message: string | null;
  /** The reason a device gave with a FAILED acknowledgement (INSTRUCTION_FAILURE_REASONS), if any. */
  error_reason: string | null;
  /** The zone the params' hours are written in ('+08:00'). */
  time_zone: Generated<string>;
  /** The receiver station or phone that carried the delivery or the acknowledgement. */
  relay_device_id: number | null;
  /** Still SENT at this time: COMM_ERROR (docs/ingest.md "Instructions"). */
  comm_deadline: number | null;
}

/** Something that happened to a device (§3 Event); `content` is JSON the reader puts into words in its language. */
export interface EventTable {
  id: Generated<number>;
  device_id: number;
  /** EventType (contract device.ts). */
  type: number;
  happen_time: number;
  instruction_id: number | null;
  content: string;
  /** What happening a detected event is (e.g. 'silent:<last heard>'), unique per device; null for people's actions. */
  dedup_key: string | null;
}

/** Background work one server process holds at a time (db/migrations/…_event_dedup_job_leases.ts). */
/** Where the event e-mail job has got to (db/migrations/…_event_mail_cursor.ts). */
export interface EventMailCursorTable {
  name: string;
  last_event_id: number;
  seen_max_id: number;
}

export interface JobLeaseTable {
  name: string;
  holder: string;
  until: number;
}

/** Feedback sent from the console (§3 Feedback; db/migrations/…_feedback.ts); pictures are addresses joined by '#'. */
export interface FeedbackTable {
  id: Generated<number>;
  user_id: number;
  org_id: number;
  email: string;
  phone: string;
  qa: string;
  pictures: string;
  lang: string;
  created_at: number;
}

/** A user has read an event (Viewed, §3). */
export interface EventViewTable {
  event_id: number;
  user_id: number;
  viewed_at: number;
}

/** A notice (db/migrations/…_notices.ts): to one organisation, or to all when org_id is null. */
export interface NoticeTable {
  id: Generated<number>;
  org_id: number | null;
  title: string;
  body: string;
  /** '' when none. */
  website: string;
  send_time: number;
  /** The only user it is to (…_user_notices.ts); null: every user of org_id (or of all). */
  user_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** A system notice's text as message keys (JSON NoticeTemplate), rendered in the reader's language; null: title and body as stored. */
  template: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A user's read / delete of a notice (no row: unread, not deleted). */
export interface NoticeStateTable {
  notice_id: number;
  user_id: number;
  viewed_at: number | null;
  deleted_at: number | null;
}

/** A user's subscription to a device's events (no row: all on); 1 on, 0 off. */
export interface EventSubscriptionTable {
  user_id: number;
  device_id: number;
  fence_event: number;
  instr_event: number;
  fix_update_event: number;
}

/** A page visited or a key action taken, as the user's console reported it (UserLog/Record). */
export interface UserLogTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  /** 'visit' or 'action' (the contract's UserLogType). */
  type: string;
  /** The page's path or the action's name. */
  target: string;
  /** When it happened (the client's clock), epoch ms. */
  time: number;
  received_at: number;
}

export interface IngestNonceTable {
  device_id: number;
  nonce: string;
  received_at: number;
}

export interface DeviceRemarkTable {
  user_id: number;
  device_id: number;
  remark_name: string;
}

export interface DeviceShareTable {
  id: Generated<number>;
  device_id: number;
  owner_user_id: number;
  recipient_user_id: number;
  edit_device: number;
  remote_instr: number;
  download_data: number;
  effective_time: number;
  failure_time: number;
  created_at: number;
  /** What the recipient reads (contract SHARE_DATA_PERIODS): 'ALL', 'FROM' (from data_from on) or 'WINDOW' (effective..failure). */
  data_period: ColumnType<'ALL' | 'FROM' | 'WINDOW', 'ALL' | 'FROM' | 'WINDOW' | undefined, 'ALL' | 'FROM' | 'WINDOW'>;
  /** FROM's first time (epoch ms); null otherwise. */
  data_from: number | null;
}

/** A Movebank import started from the console (modules/movebank/import-service.ts): its files, progress and report. */
export interface MovebankImportTable {
  id: Generated<number>;
  org_id: number;
  user_id: number | null;
  /** null: the organisation's root. */
  folder_id: number | null;
  file_name: string;
  reference_name: string | null;
  /** Where the upload was streamed to (under the data directory); deleted when the import ends. */
  data_path: string;
  reference_path: string | null;
  size: number;
  /** queued | running | done | failed | cancelled | interrupted (MOVEBANK_IMPORT_STATUSES). */
  status: string;
  cancel_requested: Generated<number>;
  bytes_read: Generated<number>;
  rows: Generated<number>;
  stored: Generated<number>;
  seconds: Generated<number>;
  /** JSON of the pipeline's MovebankImportReport once it ended. */
  report: string | null;
  /** JSON {key, params} of a message when it failed or was interrupted. */
  error: string | null;
  created_at: number;
  started_at: number | null;
  /** The running import's heartbeat. */
  updated_at: number;
  finished_at: number | null;
}

/** A used request code of a signed console call, until it can no longer be replayed (http/replay.ts). */
export interface RequestCodeTable {
  code: string;
  expires_at: number;
}

/** A fixed-window counter (sign-in attempts per client address); the window is part of the key. */
export interface RateCounterTable {
  counter_key: string;
  hits: number;
  expires_at: number;
}

/** A motion of an organisation's list; org_id null with a code: a default every organisation has. */
export interface MotionTable {
  id: Generated<number>;
  org_id: number | null;
  code: string | null;
  name: string;
  created_at: number;
}

/** A point of interest a phone recorded; photos: a JSON array of file names under field/<device>/. */
export interface PoiRecordTable {
  id: Generated<number>;
  device_id: number;
  record_time: number;
  recorder: number;
  recorder_name: string;
  name: string;
  target: string;
  lon: number;
  lat: number;
  alt: number | null;
  address: string;
  description: string;
  photos: string;
  received_at: number;
}

/** A behaviour observation a phone recorded. */
export interface BehaviorRecordTable {
  id: Generated<number>;
  device_id: number;
  start_time: number;
  end_time: number;
  recorder: number;
  recorder_name: string;
  lon: number;
  lat: number;
  motion_id: number;
  received_at: number;
}

export interface Database {
  device_remarks: DeviceRemarkTable;
  device_shares: DeviceShareTable;
  folders: FolderTable;
  devices: DeviceTable;
  fixes: FixTable;
  track_segments: TrackSegmentTable;
  track_segment_dirty: TrackSegmentDirtyTable;
  fix_group_days: FixGroupDayTable;
  sensor_records: SensorRecordTable;
  acc_bursts: AccBurstTable;
  acc_archives: AccArchiveTable;
  media_records: MediaRecordTable;
  media_thumbs: MediaThumbTable;
  motions: MotionTable;
  poi_records: PoiRecordTable;
  behavior_records: BehaviorRecordTable;
  device_work_status: JsonDocTable & { settings: string };
  mount_info: JsonDocTable & { info: string };
  instructions: InstructionTable;
  fences: FenceTable;
  fence_rules: FenceRuleTable;
  fence_removals: FenceRemovalTable;
  fence_states: FenceStateTable;
  fence_staging: FenceStagingTable;
  events: EventTable;
  event_views: EventViewTable;
  job_leases: JobLeaseTable;
  event_mail_cursor: EventMailCursorTable;
  feedback: FeedbackTable;
  ingest_nonces: IngestNonceTable;
  organisations: OrganisationTable;
  users: UserTable;
  user_log: UserLogTable;
  notices: NoticeTable;
  notice_states: NoticeStateTable;
  event_subscriptions: EventSubscriptionTable;
  user_settings: UserSettingTable;
  sessions: SessionTable;
  sign_in_failures: SignInFailureTable;
  verification_codes: VerificationCodeTable;
  security_verifications: SecurityVerificationTable;
  message_outbox: MessageOutboxTable;
  qr_logins: QrLoginTable;
  personal_tokens: PersonalTokenTable;
  server_keys: ServerKeyTable;
  request_codes: RequestCodeTable;
  rate_counters: RateCounterTable;
  movebank_imports: MovebankImportTable;
  download_tasks: DownloadTaskTable;
}

/** A geofence (db/migrations/…_fences.ts; contract calls/fence.ts). */
export interface FenceTable {
  id: Generated<number>;
  org_id: number;
  label: string;
  /** 1 polygon, 2 circle. */
  type: number;
  /** FenceShape JSON (a polygon's ring closed). */
  shape: string;
  min_lng: number;
  min_lat: number;
  max_lng: number;
  max_lat: number;
  /** Geodesic area, m². */
  area: number;
  enabled: number;
  in_or_out: string;
  rule_type: number;
  allow_send_instr: number;
  /** InstructionParams[] JSON: the schedule put on a device when its rule fires. */
  instrs: string;
  time_zone: string;
  version: Generated<number>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** A device's rule of a fence. */
export interface FenceRuleTable {
  id: Generated<number>;
  fence_id: number;
  device_id: number;
  /** Device rules: 1 once the device acknowledged synced_version = the fence's version. Remote: 1. */
  synchronized: number;
  synced_version: Generated<number>;
  created_at: number;
}

/** A device rule withdrawn, waiting for the device to drop it. */
export interface FenceRemovalTable {
  id: Generated<number>;
  fence_id: number;
  device_id: number;
  version: number;
  shape: string;
  created_at: number;
}

/** A shapefile import's fence written but not yet switched on: every read of fences leaves it out (migration …_fence_staging). */
export interface FenceStagingTable {
  fence_id: number;
  staged_at: number;
}

/** A device's last known side of a fence, and the time of the fix that decided it. */
export interface FenceStateTable {
  fence_id: number;
  device_id: number;
  inside: number;
  fix_time: number;
}


export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type UserSettingRow = Selectable<UserSettingTable>;
export type SessionRow = Selectable<SessionTable>;
export type OrganisationRow = Selectable<OrganisationTable>;
export type DeviceRow = Selectable<DeviceTable>;
export type NewDevice = Insertable<DeviceTable>;
export type FolderRow = Selectable<FolderTable>;

/** A download task of /download (db/migrations/…_download_tasks.ts; contract calls/download-task.ts). */
export interface DownloadTaskTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  /** JSON arrays: the devices' IMEIs and the export kinds, as asked. */
  imeis: string;
  kinds: string;
  file_type: string;
  /** The range, epoch ms (end included), and the zone its times are written in. */
  start_time: number;
  end_time: number;
  time_zone: string;
  /** The language the files' headers are written in (the caller's at creation). */
  lang: string;
  /** WAITING | DOWNLOADING | SUCCESSFUL | FAILED | CANCELLED | EXPIRED (DOWNLOAD_TASK_STATUSES). */
  status: string;
  cancel_requested: Generated<number>;
  /** How many times a server claimed it (a task taken up again after its server stopped counts twice). */
  attempts: Generated<number>;
  rows: Generated<number>;
  files_done: Generated<number>;
  files_total: Generated<number>;
  /** The rows the files will hold, counted when claimed (0 until then). */
  rows_total: Generated<number>;
  file_size: Generated<number>;
  /** JSON {key, params} of the message when it failed. */
  error: string | null;
  created_at: number;
  started_at: number | null;
  /** The running task's heartbeat. */
  heartbeat_at: number | null;
  finished_at: number | null;
  /** When the file is deleted (SUCCESSFUL tasks). */
  expires_at: number | null;
}
