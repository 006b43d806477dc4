import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { connect, migrateToLatest } from './db/connect.js';
import { UserRepository } from './modules/user/repository.js';
import { UserInputError, UserService } from './modules/user/service.js';

const USAGE = `Wildtrack operator commands (npm run wildtrack -- <command> [options])

  create-user --org <organisation> --name <user name> --password <password>
              [--email <e-mail>] [--phone <mobile>] [--nick <nickname>] [--primary]
      Creates the organisation if it is new, then the user.

  migrate
      Applies pending database migrations and exits.

Uses the same environment as the server (WILDTRACK_DATA, DATABASE_URL).`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const database = connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'wildtrack.db') });
  try {
    await migrateToLatest(database.db);
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
      default:
        process.stderr.write(`unknown command: ${command}\n\n${USAGE}\n`);
        return 2;
    }
  } catch (err) {
    if (err instanceof UserInputError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
