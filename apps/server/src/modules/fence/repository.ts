import type SQLite from 'better-sqlite3';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A fence row with its organisation's sample flag. */
export interface FenceRow {
  id: number;
  org_id: number;
  is_samples: number;
  label: string;
  type: number;
  shape: string;
  area: number;
  enabled: number;
  in_or_out: string;
  rule_type: number;
  allow_send_instr: number;
  instrs: string;
  time_zone: string;
  version: number;
  created_at: number;
  updated_at: number;
  /** The fence's organisation's name and its creator's nickname ('' when the account is gone). */
  org_name: string;
  creator_name: string;
}

/** A rule with its device's names and its state. */
export interface RuleRow {
  id: number;
  fence_id: number;
  device_id: number;
  /** The device's organisation (another than the fence's: a rule made under a share). */
  device_org: number;
  imei: string;
  caption: string;
  is_samples: number;
  synchronized: number;
  inside: number | null;
  fix_time: number | null;
}

export interface FenceValues {
  label: string;
  type: number;
  shape: string;
  bbox: [number, number, number, number];
  area: number;
  enabled: number;
  in_or_out: string;
  rule_type: number;
  allow_send_instr: number;
  instrs: string;
  time_zone: string;
}

/** A fence to evaluate at ingest: enabled, with its remote rules' devices. */
export interface LiveFence {
  id: number;
  /** The fence's organisation: the owner of its rules, whose rights they act with. */
  org_id: number;
  label: string;
  shape: string;
  in_or_out: string;
  allow_send_instr: number;
  instrs: string;
  time_zone: string;
  min_lng: number;
  min_lat: number;
  max_lng: number;
  max_lat: number;
}

const num = (v: unknown) => Number(v);

/** Shape text an import writes per transaction before the event loop gets a turn (~3 rings of 5,000 vertices). */
const STAGE_CHUNK_CHARS = 256 * 1024;
/** Rules inserted per statement when an import is switched on (4 values each). */
const RULE_ROWS_PER_INSERT = 500;
/** Staged fences older than this were left by a server stopped mid-import: the next import deletes them. */
const STALE_STAGED_MS = 3_600_000;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An import's fence as it is written: its values asked for one at a time (a shape is decoded as it is written). */
export interface StagedImport {
  count: number;
  values(i: number): FenceValues;
}

function fenceRow(r: Record<string, unknown>): FenceRow {
  return {
    id: num(r.id), org_id: num(r.org_id), is_samples: num(r.is_samples), label: String(r.label), type: num(r.type), shape: String(r.shape), area: num(r.area),
    enabled: num(r.enabled), in_or_out: String(r.in_or_out), rule_type: num(r.rule_type), allow_send_instr: num(r.allow_send_instr), instrs: String(r.instrs),
    time_zone: String(r.time_zone), version: num(r.version), created_at: num(r.created_at), updated_at: num(r.updated_at),
    org_name: String(r.org_name ?? ''), creator_name: String(r.creator_name ?? ''),
  };
}

/** A fence's columns from its values. */
function fenceCols(v: FenceValues, now: number) {
  return {
    label: v.label, type: v.type, shape: v.shape, min_lng: v.bbox[0], min_lat: v.bbox[1], max_lng: v.bbox[2], max_lat: v.bbox[3], area: v.area,
    enabled: v.enabled, in_or_out: v.in_or_out, rule_type: v.rule_type, allow_send_instr: v.allow_send_instr, instrs: v.instrs, time_zone: v.time_zone, updated_at: now,
  };
}

/** Leaves out a shapefile import's fences not yet switched on (FenceRepository.importFences); `f` the fences' alias. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const notStaged = (eb: ExpressionBuilder<any, any>) => eb.not(eb.exists(eb.selectFrom('fence_staging as st').select('st.fence_id').whereRef('st.fence_id', '=', 'f.id')));

/** A state's move at ingest (FenceRepository.advanceSqlite / advanceIn). */
export interface StateMove {
  fenceId: number;
  inside: number;
  fixTime: number;
  /** The time the stored row holds (compare-and-set); null when the device has no state in the fence yet. */
  prevTime: number | null;
  events: { at: number; content: string }[];
}

/**
 * The newest valid fix with a position the device had before this batch (its fixes are stored with
 * received_at = the batch's `now`): every such fix was evaluated against the device's fences when it was
 * stored (or stored before the fence had a state), so a fix not newer than it is late for every fence. A
 * state's row changes only when its side does; this bound stands in for the newest time evaluated on an
 * unchanged side after a restart or in another process (the fixes' primary key walked back from the newest).
 */
const NEWEST_EVALUATED =
  'select pick_time from fixes where device_id = ? and valid = 1 and lon is not null and lat is not null and received_at < ? order by pick_time desc limit 1';

/** A device's stored states (fence id → side and the time of the fix last written with it) and NEWEST_EVALUATED's time, null when none. */
export interface StoredStates {
  states: Map<number, { inside: number; fix_time: number }>;
  evaluatedTo: number | null;
}

/** Fences, their rules and states (the only Kysely user of the fence module). */
export class FenceRepository {
  private stmts:
    | {
        states: SQLite.Statement<[number]>;
        newest: SQLite.Statement<[number, number]>;
        first: SQLite.Statement<[number, number, number, number]>;
        move: SQLite.Statement<[number, number, number, number, number]>;
        event: SQLite.Statement<[number, number, string]>;
        /** advance's writes under one savepoint of the batch's transaction (made once: better-sqlite3 builds four wrappers per call). */
        advance: (deviceId: number, updates: readonly StateMove[]) => number[];
      }
    | undefined;

  /** `sqlite`: the better-sqlite3 handle of a SQLite database, for ingest's fast path (states and their moves). */
  constructor(
    readonly db: Kysely<Database>,
    private readonly sqlite?: SQLite.Database,
  ) {}

  private prepared(sqlite: SQLite.Database) {
    if (this.stmts) return this.stmts;
    const first = sqlite.prepare<[number, number, number, number]>(
      // a first side: inserted unless another process made the row meanwhile
      'insert into fence_states (fence_id, device_id, inside, fix_time) values (?, ?, ?, ?) on conflict (device_id, fence_id) do nothing',
    );
    // a move: compare-and-set on the time the row held
    const move = sqlite.prepare<[number, number, number, number, number]>('update fence_states set inside = ?, fix_time = ? where device_id = ? and fence_id = ? and fix_time = ?');
    const event = sqlite.prepare<[number, number, string]>('insert into events (device_id, type, happen_time, instruction_id, content) values (?, 1, ?, null, ?)');
    const advance = sqlite.transaction((deviceId: number, updates: readonly StateMove[]): number[] => {
      const moved: number[] = [];
      for (const u of updates) {
        const r = u.prevTime === null ? first.run(u.fenceId, deviceId, u.inside, u.fixTime) : move.run(u.inside, u.fixTime, deviceId, u.fenceId, u.prevTime);
        if (r.changes === 0) continue;
        moved.push(u.fenceId);
        for (const e of u.events) event.run(deviceId, e.at, e.content);
      }
      return moved;
    });
    this.stmts = {
      states: sqlite.prepare('select fence_id, inside, fix_time from fence_states where device_id = ?'),
      newest: sqlite.prepare(NEWEST_EVALUATED),
      first,
      move,
      event,
      advance,
    };
    return this.stmts;
  }

  private fences(db: Kysely<Database> = this.db) {
    return db
      .selectFrom('fences as f')
      .innerJoin('organisations as o', 'o.id', 'f.org_id')
      .leftJoin('users as cu', 'cu.id', 'f.created_by')
      .select([
        'f.id', 'f.org_id', 'o.is_samples', 'f.label', 'f.type', 'f.shape', 'f.area', 'f.enabled', 'f.in_or_out', 'f.rule_type', 'f.allow_send_instr', 'f.instrs',
        'f.time_zone', 'f.version', 'f.created_at', 'f.updated_at', 'o.name as org_name', 'cu.nick_name as creator_name',
      ])
      .where(notStaged);
  }

  async experienceFlag(userId: number): Promise<boolean> {
    const r = await this.db.selectFrom('user_settings').select('experience_func').where('user_id', '=', userId).executeTakeFirst();
    return r?.experience_func === 1;
  }

  async get(id: number, db: Kysely<Database> = this.db): Promise<FenceRow | undefined> {
    const r = await this.fences(db).where('f.id', '=', id).executeTakeFirst();
    return r ? fenceRow(r) : undefined;
  }

  /**
   * The fences of the organisations, and those of any organisation with a rule on a device of `ruleOrg`
   * (its devices' owner sees every fence acting on them), newest first, whose label holds `keyword`.
   */
  async list(orgIds: number[], keyword: string, offset: number, limit: number, ruleOrg?: number): Promise<{ rows: FenceRow[]; total: number }> {
    if (orgIds.length === 0) return { rows: [], total: 0 };
    let q = this.db.selectFrom('fences as f').where(notStaged).where((eb) => {
      const mine = eb('f.org_id', 'in', orgIds);
      if (ruleOrg === undefined) return mine;
      return eb.or([
        mine,
        eb.exists(eb.selectFrom('fence_rules as r').innerJoin('devices as d', 'd.id', 'r.device_id').select('r.id').whereRef('r.fence_id', '=', 'f.id').where('d.org_id', '=', ruleOrg)),
      ]);
    });
    if (keyword !== '') q = q.where(sql<boolean>`lower(f.label) like ${`%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const ids = await q.select('f.id').orderBy('f.id', 'desc').offset(offset).limit(limit).execute();
    if (ids.length === 0) return { rows: [], total: Number(total.n) };
    const rows = await this.fences().where('f.id', 'in', ids.map((r) => Number(r.id))).orderBy('f.id', 'desc').execute();
    return { rows: rows.map(fenceRow), total: Number(total.n) };
  }

  /** Rules of the fences (with device names and states), optionally of one rule type (the fence's). */
  async rules(fenceIds: number[], db: Kysely<Database> = this.db): Promise<RuleRow[]> {
    if (fenceIds.length === 0) return [];
    const rows = await db
      .selectFrom('fence_rules as r')
      .innerJoin('devices as d', 'd.id', 'r.device_id')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .leftJoin('fence_states as s', (j) => j.onRef('s.fence_id', '=', 'r.fence_id').onRef('s.device_id', '=', 'r.device_id'))
      .select(['r.id', 'r.fence_id', 'r.device_id', 'd.org_id as device_org', 'd.imei', 'd.caption', 'o.is_samples', 'r.synchronized', 's.inside', 's.fix_time'])
      .where('r.fence_id', 'in', fenceIds)
      .orderBy('r.fence_id')
      .orderBy('d.caption')
      .execute();
    return rows.map((r) => ({
      id: num(r.id), fence_id: num(r.fence_id), device_id: num(r.device_id), device_org: num(r.device_org), imei: r.imei, caption: r.caption, is_samples: num(r.is_samples), synchronized: num(r.synchronized),
      inside: r.inside === null ? null : num(r.inside), fix_time: r.fix_time === null ? null : num(r.fix_time),
    }));
  }

  /** Fences with a rule on the device, of these organisations ('all': whoever's, as its owner sees them). */
  async fencesOfDevice(deviceId: number, orgIds: number[] | 'all'): Promise<FenceRow[]> {
    if (orgIds.length === 0) return [];
    let q = this.fences().innerJoin('fence_rules as r', 'r.fence_id', 'f.id').where('r.device_id', '=', deviceId);
    if (orgIds !== 'all') q = q.where('f.org_id', 'in', orgIds);
    const rows = await q.orderBy('f.id', 'desc').execute();
    return rows.map(fenceRow);
  }

  /**
   * Stores fences with a rule per device, all in one transaction (`fenceId` set: replaces that fence's
   * values and the rules on `deviceIds`' devices among `editable`; others' rules stay). Device rules start
   * unsynchronized (the device has to acknowledge the new version), remote ones synchronized.
   * Returns the fences' ids.
   */
  async save(
    orgId: number,
    userId: number | null,
    items: { fenceId?: number; values: FenceValues; deviceIds: number[]; editable?: number[] }[],
    now: number,
  ): Promise<number[]> {
    return this.db.transaction().execute(async (tx) => {
      const ids: number[] = [];
      for (const it of items) {
        const v = it.values;
        const cols = fenceCols(v, now);
        let id: number;
        let version = 1;
        if (it.fenceId === undefined) {
          const r = await tx.insertInto('fences').values({ ...cols, org_id: orgId, created_by: userId, created_at: now }).returning('id').executeTakeFirstOrThrow();
          id = num(r.id);
        } else {
          id = it.fenceId;
          const before = await tx.selectFrom('fences').select(['version', 'shape', 'rule_type']).where('id', '=', id).executeTakeFirstOrThrow();
          version = num(before.version) + 1;
          await tx.updateTable('fences').set({ ...cols, version }).where('id', '=', id).execute();
          const editable = it.editable ?? [];
          const gone = editable.filter((d) => !it.deviceIds.includes(d));
          if (gone.length > 0) await this.dropRules(tx, id, gone, before.shape, num(before.rule_type), version, now);
          // A new shape or rule: the states start again from the next fix.
          await tx.deleteFrom('fence_states').where('fence_id', '=', id).execute();
        }
        const sync = v.rule_type === 2 && v.enabled === 1 ? 0 : 1;
        for (const deviceId of it.deviceIds) {
          await tx
            .insertInto('fence_rules')
            .values({ fence_id: id, device_id: deviceId, synchronized: sync, created_at: now })
            .onConflict((oc) => oc.columns(['fence_id', 'device_id']).doUpdateSet({ synchronized: sync }))
            .execute();
        }
        if (it.fenceId !== undefined) {
          // Rules kept on devices the caller can't see follow the fence's new version too.
          await tx.updateTable('fence_rules').set({ synchronized: sync }).where('fence_id', '=', id).execute();
        }
        ids.push(id);
      }
      return ids;
    });
  }

  /**
   * Stores an import's fences, all or none, each with a rule per device (`sync` their synchronized flag),
   * without holding the database for the whole file (issue 26 H4: 120 rings of 5,000 vertices are ~9 MB,
   * and one transaction writing them held every other call on SQLite's one connection for 150–270 ms).
   * The fences are written a chunk of about STAGE_CHUNK_CHARS of shapes per transaction, each listed in
   * fence_staging (which every read of fences leaves out), with a turn of the event loop between chunks; then
   * one short transaction switches them all on (their staging rows deleted, their rules inserted: no
   * ring is rewritten). A failure on the way deletes what was written (and nothing was seen); what a server
   * stopped mid-import left is deleted by the next import. Returns the fences' ids in order.
   */
  async importFences(orgId: number, userId: number | null, items: StagedImport, deviceIds: readonly number[], sync: number, now: number): Promise<number[]> {
    await this.dropStaged(await this.staleStaged(now - STALE_STAGED_MS));
    const ids: number[] = [];
    try {
      for (let i = 0; i < items.count; ) {
        const chunk: FenceValues[] = [];
        for (let chars = 0; i < items.count && (chunk.length === 0 || chars < STAGE_CHUNK_CHARS); i++) {
          const v = items.values(i);
          chunk.push(v);
          chars += v.shape.length;
        }
        await this.db.transaction().execute(async (tx) => {
          for (const v of chunk) {
            const r = await tx.insertInto('fences').values({ ...fenceCols(v, now), org_id: orgId, created_by: userId, created_at: now }).returning('id').executeTakeFirstOrThrow();
            await tx.insertInto('fence_staging').values({ fence_id: num(r.id), staged_at: now }).execute();
            ids.push(num(r.id));
          }
        });
        await turn();
      }
      await this.db.transaction().execute(async (tx) => {
        const gone = await tx.deleteFrom('fence_staging').where('fence_id', 'in', ids).executeTakeFirst();
        if (Number(gone.numDeletedRows) !== ids.length) throw new Error('staged fences removed before their import was switched on');
        const rules = ids.flatMap((fenceId) => deviceIds.map((deviceId) => ({ fence_id: fenceId, device_id: deviceId, synchronized: sync, created_at: now })));
        for (let k = 0; k < rules.length; k += RULE_ROWS_PER_INSERT) await tx.insertInto('fence_rules').values(rules.slice(k, k + RULE_ROWS_PER_INSERT)).execute();
      });
    } catch (err) {
      await this.dropStaged(ids).catch(() => {});
      throw err;
    }
    return ids;
  }

  /** Staged fences written before `before` (left by a server stopped mid-import). */
  private async staleStaged(before: number): Promise<number[]> {
    const rows = await this.db.selectFrom('fence_staging').select('fence_id').where('staged_at', '<', before).execute();
    return rows.map((r) => num(r.fence_id));
  }

  /** Deletes staged fences (a failed import's), a few at a time; switched-on fences among them are left alone. */
  private async dropStaged(ids: readonly number[]): Promise<void> {
    for (let k = 0; k < ids.length; k += 20) {
      const part = ids.slice(k, k + 20);
      await this.db.transaction().execute(async (tx) => {
        const staged = (await tx.selectFrom('fence_staging').select('fence_id').where('fence_id', 'in', part).execute()).map((r) => num(r.fence_id));
        if (staged.length === 0) return;
        await tx.deleteFrom('fence_staging').where('fence_id', 'in', staged).execute();
        await tx.deleteFrom('fences').where('id', 'in', staged).execute();
      });
      await turn();
    }
  }

  /** Removes rules (device rules leave a removal for the device to acknowledge). */
  private async dropRules(tx: Transaction<Database>, fenceId: number, deviceIds: number[], shape: string, ruleType: number, version: number, now: number): Promise<void> {
    if (ruleType === 2) {
      for (const d of deviceIds) await tx.insertInto('fence_removals').values({ fence_id: fenceId, device_id: d, version, shape, created_at: now }).execute();
    }
    await tx.deleteFrom('fence_rules').where('fence_id', '=', fenceId).where('device_id', 'in', deviceIds).execute();
    await tx.deleteFrom('fence_states').where('fence_id', '=', fenceId).where('device_id', 'in', deviceIds).execute();
  }

  /**
   * Rules on devices of another organisation than the fence's (made under a share), optionally only on these
   * devices or of these fences: what FenceService.withdrawUngranted checks against the fence's rights now.
   */
  async foreignRules(filter: { deviceIds?: readonly number[]; fenceIds?: readonly number[] } = {}): Promise<{ fence_id: number; device_id: number; fence_org: number; device_org: number }[]> {
    if (filter.deviceIds?.length === 0 || filter.fenceIds?.length === 0) return [];
    let q = this.db
      .selectFrom('fence_rules as r')
      .innerJoin('fences as f', 'f.id', 'r.fence_id')
      .innerJoin('devices as d', 'd.id', 'r.device_id')
      .select(['r.fence_id', 'r.device_id', 'f.org_id as fence_org', 'd.org_id as device_org'])
      .whereRef('f.org_id', '!=', 'd.org_id');
    if (filter.deviceIds) q = q.where('r.device_id', 'in', [...filter.deviceIds]);
    if (filter.fenceIds) q = q.where('r.fence_id', 'in', [...filter.fenceIds]);
    const rows = await q.orderBy('r.fence_id').orderBy('r.device_id').execute();
    return rows.map((r) => ({ fence_id: num(r.fence_id), device_id: num(r.device_id), fence_org: num(r.fence_org), device_org: num(r.device_org) }));
  }

  /**
   * Takes rules out of their fences, the fences otherwise unchanged, in one transaction: each rule and its
   * state go, and a device rule of an enabled fence leaves a removal for the device to acknowledge (handed
   * with its next answers, like a deleted fence's). Returns how many rules went.
   */
  async withdrawRules(rules: readonly { fence_id: number; device_id: number }[], now: number): Promise<number> {
    if (rules.length === 0) return 0;
    return this.db.transaction().execute(async (tx) => {
      let n = 0;
      const byFence = new Map<number, number[]>();
      for (const r of rules) byFence.set(r.fence_id, [...(byFence.get(r.fence_id) ?? []), r.device_id]);
      for (const [fenceId, deviceIds] of byFence) {
        const f = await tx.selectFrom('fences').select(['version', 'rule_type', 'shape', 'enabled']).where('id', '=', fenceId).executeTakeFirst();
        if (!f) continue;
        const present = (await tx.selectFrom('fence_rules').select('device_id').where('fence_id', '=', fenceId).where('device_id', 'in', deviceIds).execute()).map((r) => num(r.device_id));
        if (present.length === 0) continue;
        if (num(f.rule_type) === 2 && num(f.enabled) === 1) {
          await tx.insertInto('fence_removals').values(present.map((d) => ({ fence_id: fenceId, device_id: d, version: num(f.version) + 1, shape: f.shape, created_at: now }))).execute();
        }
        await tx.deleteFrom('fence_rules').where('fence_id', '=', fenceId).where('device_id', 'in', present).execute();
        await tx.deleteFrom('fence_states').where('fence_id', '=', fenceId).where('device_id', 'in', present).execute();
        // the fence's update time moves: another process's evaluator reloads its index (generation)
        await tx.updateTable('fences').set({ updated_at: now }).where('id', '=', fenceId).execute();
        n += present.length;
      }
      return n;
    });
  }

  /** The fence's rules on devices of this organisation (its devices' owner sees them, and may take them out). */
  async rulesOnOrg(fenceId: number, orgId: number): Promise<{ fence_id: number; device_id: number }[]> {
    const rows = await this.db
      .selectFrom('fence_rules as r')
      .innerJoin('devices as d', 'd.id', 'r.device_id')
      .select(['r.fence_id', 'r.device_id'])
      .where('r.fence_id', '=', fenceId)
      .where('d.org_id', '=', orgId)
      .execute();
    return rows.map((r) => ({ fence_id: num(r.fence_id), device_id: num(r.device_id) }));
  }

  async setEnabled(id: number, enabled: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const f = await tx.selectFrom('fences').select(['version', 'rule_type', 'shape', 'enabled']).where('id', '=', id).executeTakeFirstOrThrow();
      if (num(f.enabled) === enabled) return;
      const version = num(f.version) + 1;
      await tx.updateTable('fences').set({ enabled, version, updated_at: now }).where('id', '=', id).execute();
      if (num(f.rule_type) === 2) {
        // Device rules: the device is told (switched off: to drop the fence) and acknowledges again.
        await tx.updateTable('fence_rules').set({ synchronized: 0 }).where('fence_id', '=', id).execute();
        if (enabled === 0) {
          const rules = await tx.selectFrom('fence_rules').select('device_id').where('fence_id', '=', id).execute();
          for (const r of rules) await tx.insertInto('fence_removals').values({ fence_id: id, device_id: num(r.device_id), version, shape: f.shape, created_at: now }).execute();
        }
      }
      await tx.deleteFrom('fence_states').where('fence_id', '=', id).execute();
    });
  }

  async delete(id: number, now: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const f = await tx.selectFrom('fences').select(['version', 'rule_type', 'shape', 'enabled']).where('id', '=', id).executeTakeFirst();
      if (!f) return;
      if (num(f.rule_type) === 2 && num(f.enabled) === 1) {
        const rules = await tx.selectFrom('fence_rules').select('device_id').where('fence_id', '=', id).execute();
        for (const r of rules) await tx.insertInto('fence_removals').values({ fence_id: id, device_id: num(r.device_id), version: num(f.version) + 1, shape: f.shape, created_at: now }).execute();
      }
      await tx.deleteFrom('fence_states').where('fence_id', '=', id).execute();
      await tx.deleteFrom('fence_rules').where('fence_id', '=', id).execute();
      await tx.deleteFrom('fences').where('id', '=', id).execute();
    });
  }

  /** A cheap mark of every change to fences and rules: ingest's index reloads when it moves. */
  async generation(): Promise<string> {
    const f = await this.db
      .selectFrom('fences as f')
      .where(notStaged)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('f.updated_at').as('t'), eb.fn.max('f.version').as('v')])
      .executeTakeFirstOrThrow();
    const r = await this.db.selectFrom('fence_rules').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('id').as('m')]).executeTakeFirstOrThrow();
    return `${f.n}:${f.t}:${f.v}:${r.n}:${r.m}`;
  }

  /** Every enabled fence with remote rules, and the devices of those rules. */
  async liveFences(): Promise<{ fences: LiveFence[]; rules: { fence_id: number; device_id: number }[] }> {
    const fences = await this.db
      .selectFrom('fences as f')
      .select(['f.id', 'f.org_id', 'f.label', 'f.shape', 'f.in_or_out', 'f.allow_send_instr', 'f.instrs', 'f.time_zone', 'f.min_lng', 'f.min_lat', 'f.max_lng', 'f.max_lat'])
      .where('f.enabled', '=', 1)
      .where('f.rule_type', '=', 1)
      .where(notStaged)
      .execute();
    const rules = await this.db
      .selectFrom('fence_rules as r')
      .innerJoin('fences as f', 'f.id', 'r.fence_id')
      .select(['r.fence_id', 'r.device_id'])
      .where('f.enabled', '=', 1)
      .where('f.rule_type', '=', 1)
      .execute();
    return {
      fences: fences.map((f) => ({ ...f, id: num(f.id), org_id: num(f.org_id), allow_send_instr: num(f.allow_send_instr), min_lng: num(f.min_lng), min_lat: num(f.min_lat), max_lng: num(f.max_lng), max_lat: num(f.max_lat) })),
      rules: rules.map((r) => ({ fence_id: num(r.fence_id), device_id: num(r.device_id) })),
    };
  }

  /** The device's states and the newest fix evaluated before this batch (StoredStates), by prepared statements (SQLite; inside the batch's transaction at ingest). */
  statesSqlite(deviceId: number, now: number): StoredStates {
    const s = this.prepared(this.sqlite!);
    const rows = s.states.all(deviceId) as { fence_id: number; inside: number; fix_time: number }[];
    const newest = s.newest.get(deviceId, now) as { pick_time: number } | undefined;
    return { states: new Map(rows.map((r) => [Number(r.fence_id), { inside: Number(r.inside), fix_time: Number(r.fix_time) }])), evaluatedTo: newest ? Number(newest.pick_time) : null };
  }

  /** statesSqlite on PostgreSQL (`db` the batch's transaction at ingest). */
  async statesIn(db: Kysely<Database>, deviceId: number, now: number): Promise<StoredStates> {
    const rows = await db.selectFrom('fence_states').select(['fence_id', 'inside', 'fix_time']).where('device_id', '=', deviceId).execute();
    const newest = await db
      .selectFrom('fixes')
      .select('pick_time')
      .where('device_id', '=', deviceId)
      .where('valid', '=', 1)
      .where('lon', 'is not', null)
      .where('lat', 'is not', null)
      .where('received_at', '<', now)
      .orderBy('pick_time', 'desc')
      .limit(1)
      .executeTakeFirst();
    return { states: new Map(rows.map((r) => [num(r.fence_id), { inside: num(r.inside), fix_time: num(r.fix_time) }])), evaluatedTo: newest ? num(newest.pick_time) : null };
  }

  /**
   * Moves the device's states forward, each as a compare-and-set on the time it was computed from
   * (`prevTime`, null: no state yet): a state another process moved meanwhile is left alone (the caller
   * reads it again and evaluates anew). The events of the fences whose state moved are stored with it.
   * Runs inside the caller's transaction (the batch's) as one unit (a savepoint): SQLite, synchronously by
   * prepared statements. Returns the fences that moved.
   */
  advanceSqlite(deviceId: number, updates: readonly StateMove[]): number[] {
    return this.prepared(this.sqlite!).advance(deviceId, updates);
  }

  /**
   * advanceSqlite on PostgreSQL, in the batch's transaction `trx`: one statement for all the moves and their
   * events (the updates compare-and-set on the time, the first sides insert or find a row there already, and
   * the events of the fences that moved are inserted from what those two returned).
   */
  async advanceIn(trx: Kysely<Database>, deviceId: number, updates: readonly StateMove[]): Promise<number[]> {
    if (updates.length === 0) return [];
    const moves = sql.join(updates.map((u) => sql`(${u.fenceId}::bigint, ${u.inside}::integer, ${u.fixTime}::bigint, ${u.prevTime ?? -1}::bigint)`));
    const events = updates.flatMap((u) => u.events.map((e) => sql`(${u.fenceId}::bigint, ${e.at}::bigint, ${e.content}::text)`));
    const eventPart = events.length === 0
      ? sql``
      : sql`, ev as (
          insert into events (device_id, type, happen_time, instruction_id, content)
          select ${deviceId}, 1, e.at, null, e.content from (values ${sql.join(events)}) as e(fence_id, at, content)
          where e.fence_id in (select fence_id from upd union all select fence_id from ins)
        )`;
    const r = await sql<{ fence_id: number }>`
      with v(fence_id, inside, fix_time, prev) as (values ${moves}),
      upd as (
        update fence_states s set inside = v.inside, fix_time = v.fix_time from v
        where s.device_id = ${deviceId} and s.fence_id = v.fence_id and v.prev <> -1 and s.fix_time = v.prev
        returning s.fence_id
      ),
      ins as (
        insert into fence_states (fence_id, device_id, inside, fix_time)
        select v.fence_id, ${deviceId}, v.inside, v.fix_time from v where v.prev = -1
        on conflict (device_id, fence_id) do nothing
        returning fence_id
      )${eventPart}
      select fence_id from upd union all select fence_id from ins`.execute(trx);
    return r.rows.map((x) => num(x.fence_id));
  }

  /** Device rules and removals waiting for the device (not yet acknowledged at the fence's version). */
  async pendingForDevice(deviceId: number): Promise<{ rules: (FenceRow & { rule_id: number })[]; removals: { id: number; fence_id: number; version: number; shape: string }[] }> {
    const rules = await this.fences()
      .innerJoin('fence_rules as r', 'r.fence_id', 'f.id')
      .select(['r.id as rule_id'])
      .where('r.device_id', '=', deviceId)
      .where('f.rule_type', '=', 2)
      .where('f.enabled', '=', 1)
      .where('r.synchronized', '=', 0)
      .execute();
    const removals = await this.db.selectFrom('fence_removals').select(['id', 'fence_id', 'version', 'shape']).where('device_id', '=', deviceId).execute();
    return {
      rules: rules.map((r) => ({ ...fenceRow(r), rule_id: num(r.rule_id) })),
      removals: removals.map((r) => ({ id: num(r.id), fence_id: num(r.fence_id), version: num(r.version), shape: r.shape })),
    };
  }

  /** The device acknowledged fence `fenceId` at `version`: its rule is synchronized (or its removal done). */
  async acknowledge(deviceId: number, fenceId: number, version: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const removed = await tx.deleteFrom('fence_removals').where('device_id', '=', deviceId).where('fence_id', '=', fenceId).where('version', '<=', version).executeTakeFirst();
      const f = await tx.selectFrom('fences').select('version').where('id', '=', fenceId).executeTakeFirst();
      let synced = 0;
      if (f && num(f.version) === version) {
        const r = await tx.updateTable('fence_rules').set({ synchronized: 1, synced_version: version }).where('fence_id', '=', fenceId).where('device_id', '=', deviceId).executeTakeFirst();
        synced = Number(r.numUpdatedRows);
      }
      return synced > 0 || Number(removed.numDeletedRows) > 0;
    });
  }
}
