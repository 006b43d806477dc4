import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keepFilesPrivate } from './bootstrap.js';
import { type Config, loadConfig } from './config.js';
import { backupSqlite, BackupError, restoreSqlite } from './db/backup.js';
import { connect, migrateToLatest } from './db/connect.js';
import { UserRepository } from './modules/user/repository.js';
import { OutboxRepository } from './outgoing/outbox-repository.js';
import { AdviceRepository } from './modules/advice/repository.js';
import { AuthRepository } from './modules/auth/repository.js';
import { usePasswordHashing, UserInputError, UserService } from './modules/user/service.js';
import { DeviceRepository } from './modules/device/repository.js';
import { BATTERY_NAMES, DEVICE_TYPE_NAMES, DeviceInputError, DeviceRegistry, parseInstrSupport, parseSensors, SPECIES_NAMES } from './modules/device/registry.js';
import { sensorNames } from '@wildtrack/contract';
import { checkMovebankFile, importMovebank, importOutcome, MovebankFormatError, unpackDelivery } from './modules/movebank/index.js';
import { NoticeRepository } from './modules/notice/repository.js';
import { NoticeInputError, NoticeService } from './modules/notice/service.js';
import { now, startClock } from './lib/clock.js';

const USAGE = `Wildtrack operator commands (npm run wildtrack -- <command> [options])

  create-user --org <organisation> --name <user name> --password <password>
              [--email <e-mail>] [--phone <mobile>] [--nick <nickname>] [--primary]
      Creates the organisation if it is new, then the user.

  create-org --name <organisation>
      Creates an organisation (without users).

  register-device --org <organisation> --imei <imei> [--type tracker|vhf|phone] [--model <model>]
              [--caption <name>] [--sensors GNSS,Acceleration,Temperature,...] [--species bird|beast|other]
              [--battery li|lic|lisocl2] [--folder <folder name>]
              [--instr AccCollectionSwitch,AccCollectionFrequency,GNSSCollectionAdaptiveHighFrequency,...]
      Registers a device and prints its ingest secret as JSON {imei, secret} (shown once). --instr lists
      the instructions it can carry out (the contract's InstrSupport names: AccCollectionSwitch,
      AccCollectionFrequency, GNSSCollectionAdaptiveHighFrequency, GNSSCollectionAdaptiveLowFrequency,
      DataPostbackHours); without it the console refuses those instructions for the device.

  list-devices [--org <organisation>]
      Lists devices with their record counts.

  import-movebank --org <organisation> --folder <folder name> --file <Movebank CSV> [--reference <reference data CSV>]
              [--allow-skips]
      Imports a Movebank study export (a .csv, a .csv.gz, or a .zip of the CSV and its reference data; a
      spreadsheet is refused): each tag on each individual becomes a device of the organisation
      in the folder (created if new), GPS rows fixes, acceleration bursts; fixes Movebank marked as
      outliers are invalid. Progress goes to stderr, the report (JSON) to stdout, with the first rows
      skipped for each reason. Importing the same file again stores nothing twice and applies the
      outlier marks changed since. Exits 1 when nothing was imported, or when rows were skipped
      unless --allow-skips is given.

  list-feedback [--limit <n>] [--json]
      Prints the feedback users sent from the console (newest first, 50 unless --limit): when, who
      (account and organisation), the e-mail and phone to answer to, the question and the pictures'
      addresses (files under WILDTRACK_DATA/uploads). --json prints one JSON object a line.

  outbox [--limit <n>] [--json]
      Prints the verification codes and messages the server could not hand to a gateway (newest first,
      20 unless --limit): SMS when SMS_URL is unset, e-mail when SMTP_URL is unset. Each has its time,
      channel, address and text; a code in it is valid 5 minutes. --json prints one JSON object a line.

  send-notice --title <title> --body <text> [--website <http(s) URL>] [--org <organisation>]
      Sends a notice to every user of the organisation, or of all organisations when no --org is given.
      The body is plain text (line breaks kept; never shown as HTML); \n in --body is a line break.
      The console shows the website as an "open URL" link only when it is an http(s) address. Prints the
      notice's id. Open consoles get it at once (unread dot).

  run-download-tasks
      Runs the waiting download tasks (/download) one after another and exits: tasks whose server stopped
      are taken up again first, files past their time deleted. For servers started with DOWNLOAD_TASKS=off.

  end-sessions [--user <user name>]
      Signs out every session (or one user's): their next call is answered 1004.

  migrate
      Applies pending database migrations and exits.

  backup <file>
      Copies the SQLite database to <file> (new, mode 600) while the server runs: one consistent
      snapshot, taken with SQLite's online backup. With PostgreSQL (DATABASE_URL) use pg_dump instead.
      Uploaded pictures and device media are files under WILDTRACK_DATA: copy them as well.

  restore <file>
      Puts a backup made by \`backup\` in place of the SQLite database, then migrates it. Refused while
      a server runs on this data folder: stop it first. The database it replaces is kept beside it as
      wildtrack.db.before-restore-<time>. With PostgreSQL use pg_restore instead.

Uses the same environment as the server (WILDTRACK_DATA, DATABASE_URL).`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  usePasswordHashing(config);
  if (config.clockStart !== undefined) startClock(config.clockStart);
  keepFilesPrivate();
  if (command === 'backup' || command === 'restore') return backupCommand(command, rest, config);
  const database = connect({ databaseUrl: config.databaseUrl, pgSchema: config.databaseSchema, sqliteFile: path.join(config.dataDir, 'wildtrack.db') });
  try {
    await migrateToLatest(database);
    switch (command) {
      case 'migrate':
        process.stdout.write('migrations are up to date\n');
        return 0;
      case 'create-user': {
        const { values } = parseArgs({
          args: rest,
          options: {
            org: { type: 'string' },
            name: { type: 'string' },
            password: { type: 'string' },
            email: { type: 'string' },
            phone: { type: 'string' },
            nick: { type: 'string' },
            primary: { type: 'boolean', default: false },
          },
        });
        if (!values.org || !values.name || !values.password) {
          process.stderr.write('create-user needs --org, --name and --password\n');
          return 2;
        }
        const users = new UserService(new UserRepository(database.db));
        const id = await users.createUser({
          orgName: values.org,
          userName: values.name,
          password: values.password,
          email: values.email,
          phone: values.phone,
          nickName: values.nick,
          isPrimary: values.primary,
        });
        process.stdout.write(`created user ${values.name} (id ${id}) in organisation ${values.org}\n`);
        return 0;
      }
      case 'end-sessions': {
        const { values } = parseArgs({ args: rest, options: { user: { type: 'string' } } });
        const n = await new AuthRepository(database.db).deleteSessions(values.user?.toLowerCase());
        process.stdout.write(`ended ${n} session(s)\n`);
        return 0;
      }
      case 'create-org': {
        const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
        if (!values.name?.trim()) {
          process.stderr.write('create-org needs --name\n');
          return 2;
        }
        const repo = new DeviceRepository(database.db);
        if (await repo.orgId(values.name.trim())) {
          process.stderr.write(`organisation ${values.name} exists already\n`);
          return 1;
        }
        const id = await repo.createOrg(values.name.trim(), false, now());
        process.stdout.write(`created organisation ${values.name} (id ${id})\n`);
        return 0;
      }
      case 'register-device': {
        const { values } = parseArgs({
          args: rest,
          options: {
            org: { type: 'string' },
            imei: { type: 'string' },
            type: { type: 'string', default: 'tracker' },
            model: { type: 'string' },
            caption: { type: 'string' },
            sensors: { type: 'string', default: 'GNSS' },
            species: { type: 'string', default: 'unknown' },
            battery: { type: 'string', default: 'unknown' },
            folder: { type: 'string' },
            instr: { type: 'string', default: '' },
          },
        });
        if (!values.org || !values.imei) {
          process.stderr.write('register-device needs --org and --imei\n');
          return 2;
        }
        const type = DEVICE_TYPE_NAMES[values.type];
        const species = SPECIES_NAMES[values.species];
        const battery = BATTERY_NAMES[values.battery];
        if (type === undefined || species === undefined || battery === undefined) {
          process.stderr.write(`--type is one of ${Object.keys(DEVICE_TYPE_NAMES).join('|')}, --species ${Object.keys(SPECIES_NAMES).join('|')}, --battery ${Object.keys(BATTERY_NAMES).join('|')}\n`);
          return 2;
        }
        const repo = new DeviceRepository(database.db);
        const devices = new DeviceRegistry(repo);
        const orgId = await devices.orgIdByName(values.org);
        const folderId = values.folder ? await repo.findOrCreateFolder(orgId, values.folder, now()) : null;
        const r = await devices.register({
          orgId,
          imei: values.imei,
          type,
          model: values.model,
          caption: values.caption,
          sensors: parseSensors(values.sensors),
          instrSupport: parseInstrSupport(values.instr),
          speciesType: species,
          batteryType: battery,
          folderId,
        });
        process.stdout.write(`${JSON.stringify({ imei: r.imei, secret: r.secret })}\n`);
        return 0;
      }
      case 'outbox': {
        const { values } = parseArgs({ args: rest, options: { limit: { type: 'string' }, json: { type: 'boolean' } } });
        const limit = values.limit === undefined ? 20 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1) {
          process.stderr.write('outbox: --limit takes a whole number above 0\n');
          return 2;
        }
        const rows = await new OutboxRepository(database.db).list(limit);
        if (rows.length === 0) {
          process.stdout.write('the outbox is empty\n');
          return 0;
        }
        for (const r of rows) {
          const item = { id: Number(r.id), time: new Date(Number(r.created_at)).toISOString(), channel: r.channel, address: r.address, subject: r.subject, text: r.text };
          if (values.json) process.stdout.write(`${JSON.stringify(item)}\n`);
          else process.stdout.write(`#${item.id}  ${item.time.slice(0, 19).replace('T', ' ')} UTC  ${item.channel}  ${item.address}\n    ${item.text}\n\n`);
        }
        return 0;
      }
      case 'list-feedback': {
        const { values } = parseArgs({ args: rest, options: { limit: { type: 'string' }, json: { type: 'boolean' } } });
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1) {
          process.stderr.write('list-feedback: --limit takes a whole number above 0\n');
          return 2;
        }
        const rows = await new AdviceRepository(database.db).list(limit);
        if (rows.length === 0) {
          process.stdout.write('no feedback\n');
          return 0;
        }
        for (const r of rows) {
          const item = {
            id: Number(r.id),
            time: new Date(Number(r.created_at)).toISOString(),
            user: r.user_name ?? `user ${r.user_id}`,
            org: r.org_name ?? `organisation ${r.org_id}`,
            email: r.email,
            phone: r.phone,
            lang: r.lang,
            qa: r.qa,
            pictures: r.pictures ? r.pictures.split('#') : [],
          };
          if (values.json) {
            process.stdout.write(`${JSON.stringify(item)}\n`);
            continue;
          }
          const head = `#${item.id}  ${item.time.slice(0, 16).replace('T', ' ')} UTC  ${item.user} (${item.org})  ${item.email}${item.phone ? `  ${item.phone}` : ''}`;
          const body = item.qa.split(/\r?\n/).map((line) => `    ${line}`).join('\n');
          const pictures = item.pictures.map((p) => `    picture: ${p}`).join('\n');
          process.stdout.write(`${head}\n${body}\n${pictures ? `${pictures}\n` : ''}\n`);
        }
        return 0;
      }
      case 'list-devices': {
        const { values } = parseArgs({ args: rest, options: { org: { type: 'string' } } });
        const devices = new DeviceRegistry(new DeviceRepository(database.db));
        const orgId = values.org ? await devices.orgIdByName(values.org) : undefined;
        const rows = await devices.list(orgId);
        if (rows.length === 0) {
          process.stdout.write('no devices\n');
          return 0;
        }
        const table = rows.map((r) => ({
          imei: r.imei,
          caption: r.caption,
          org: r.org_name,
          folder: r.folder_name ?? '',
          type: Object.keys(DEVICE_TYPE_NAMES).find((k) => DEVICE_TYPE_NAMES[k] === r.type) ?? String(r.type),
          sensors: sensorNames(r.sensors).join(','),
          fixes: Number(r.fixes),
          sensor_records: Number(r.sensor_records),
          bursts: Number(r.bursts),
          media: Number(r.media),
          last: r.last_work_time ? new Date(r.last_work_time).toISOString().slice(0, 16).replace('T', ' ') : '',
        }));
        console.table(table);
        return 0;
      }
      case 'import-movebank': {
        const { values } = parseArgs({
          args: rest,
          options: { org: { type: 'string' }, folder: { type: 'string' }, file: { type: 'string' }, reference: { type: 'string' }, 'allow-skips': { type: 'boolean' } },
        });
        if (!values.org || !values.folder?.trim() || !values.file) {
          process.stderr.write('import-movebank needs --org, --folder and --file\n');
          return 2;
        }
        // npm run starts in the repository root; paths are meant from where the operator typed them
        const from = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
        // The wiring is the composition root's (app.ts), loaded only by the commands that need it.
        const { movebankServices } = await import('./app.js');
        const services = movebankServices(database, config.dataDir);
        const orgId = await services.devices.orgIdByName(values.org);
        // a .zip or .csv.gz (Movebank's and Env-DATA's deliveries) is unpacked beside it first, removed after
        const made: string[] = [];
        try {
          const delivery = await unpackDelivery(from(values.file));
          made.push(...delivery.made);
          const reference = values.reference ? await unpackDelivery(from(values.reference)) : undefined;
          if (reference) made.push(...reference.made);
          await checkMovebankFile(delivery.data);
          const folderId = await services.folders.findOrCreateFolder(orgId, values.folder.trim(), now());
          const report = await importMovebank(services, {
            file: delivery.data,
            orgId,
            folderId,
            referenceFile: reference?.data ?? delivery.reference,
            onProgress: (line) => process.stderr.write(`${line}\n`),
          });
          report.file = from(values.file);
          process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
          const outcome = importOutcome(report, values['allow-skips'] ?? false);
          if (outcome.message) process.stderr.write(`${outcome.message}\n`);
          return outcome.code;
        } catch (err) {
          if (!(err instanceof MovebankFormatError)) throw err;
          process.stderr.write(`${err.message}\n`);
          return 1;
        } finally {
          for (const f of made) fs.rmSync(f, { force: true });
        }
      }
      case 'run-download-tasks': {
        const { downloadTaskService } = await import('./app.js');
        const tasks = downloadTaskService(database, { ...config, downloadTasks: 'run' }, { warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) });
        await tasks.tick();
        process.stdout.write('download tasks run\n');
        return 0;
      }
      case 'send-notice': {
        const { values } = parseArgs({ args: rest, options: { title: { type: 'string' }, body: { type: 'string' }, website: { type: 'string' }, org: { type: 'string' } } });
        const service = new NoticeService(new NoticeRepository(database.db));
        const id = await service.send({ title: values.title ?? '', body: (values.body ?? '').replace(/\\n/g, '\n'), website: values.website, orgName: values.org });
        process.stdout.write(`sent notice ${id} to ${values.org ? `organisation ${values.org}` : 'all organisations'}\n`);
        return 0;
      }
      default:
        process.stderr.write(`unknown command: ${command}\n\n${USAGE}\n`);
        return 2;
    }
  } catch (err) {
    if (err instanceof UserInputError || err instanceof DeviceInputError || err instanceof NoticeInputError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

const PG_BACKUP = `The database is PostgreSQL (DATABASE_URL): back it up with PostgreSQL's own tools, which take a
consistent snapshot while the server runs:
  pg_dump --format=custom --file=wildtrack.dump "$DATABASE_URL"
and put one back (servers stopped) with:
  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" wildtrack.dump
(add --schema / -n for DATABASE_SCHEMA). Uploaded pictures and device media are files under WILDTRACK_DATA: copy them too.`;

/** `backup <file>` and `restore <file>` on the SQLite database; PostgreSQL is pointed at pg_dump. */
async function backupCommand(command: 'backup' | 'restore', args: string[], config: Config): Promise<number> {
  const file = args[0];
  if (!file || args.length > 1) {
    process.stderr.write(`${command} needs one argument: the backup file\n`);
    return 2;
  }
  if (config.databaseUrl) {
    process.stderr.write(`${PG_BACKUP}\n`);
    return 2;
  }
  const sqliteFile = path.join(config.dataDir, 'wildtrack.db');
  const target = path.resolve(file);
  try {
    if (command === 'backup') {
      // How long the copy took: elapsed time (performance.now), not the server's clock (lib/clock.ts).
      const started = performance.now();
      const { bytes } = await backupSqlite(sqliteFile, target);
      process.stdout.write(`backed up ${sqliteFile} to ${target} (${(bytes / 1048576).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
      return 0;
    }
    const { keptAs } = await restoreSqlite(sqliteFile, target);
    const database = connect({ sqliteFile });
    try {
      const applied = await migrateToLatest(database);
      if (applied.length > 0) process.stdout.write(`migrations applied to the restored database: ${applied.join(', ')}\n`);
    } finally {
      await database.close();
    }
    process.stdout.write(`restored ${target} as ${sqliteFile}${keptAs ? `; the database it replaced is kept as ${keptAs}` : ''}\n`);
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 1;
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
