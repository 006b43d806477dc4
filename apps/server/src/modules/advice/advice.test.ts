import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { uploadImage } from '../../test/upload-helper.js';
import { AdviceRepository } from './repository.js';

describe.each(DIALECTS)('Advice/Submit on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let photo: Buffer;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } }).jpeg().toBuffer();
  });
  afterAll(async () => t.close());

  const submit = (body: unknown, token?: string, lang: 'zh' | 'en' = 'en') => t.call(calls.SubmitAdvice.path, body, { token, lang });
  const stored = () => new AdviceRepository(t.database.db).list(100);

  it('stores feedback with its pictures, the phone optional', async () => {
    const a = (await uploadImage(t, 'a.jpg', photo, alice)).Data!.Url;
    const b = (await uploadImage(t, 'b.jpeg', photo, alice)).Data!.Url;
    const res = await submit({ email: ' ringer@example.org ', phone: '13912345678', qa: 'The map is empty.\nWhy?', pictures: `${a}#${b}` }, alice);
    expect(res.body.Code).toBe(Code.Success);
    expect((await submit({ email: 'ringer@example.org', qa: 'No phone, no pictures' }, alice)).body.Code).toBe(Code.Success);
    const rows = await stored();
    expect(rows.map((r) => [r.email, r.phone, r.qa, r.pictures, r.org_name, r.lang])).toEqual([
      ['ringer@example.org', '', 'No phone, no pictures', '', 'Crane Lab', 'en'],
      ['ringer@example.org', '13912345678', 'The map is empty.\nWhy?', `${a}#${b}`, 'Crane Lab', 'en'],
    ]);
  });

  it('refuses bad input naming the field in the caller\'s language, and storing nothing', async () => {
    const before = (await stored()).length;
    const pic = (await uploadImage(t, 'a.png', await sharp(photo).png().toBuffer(), alice)).Data!.Url;
    const cases: [unknown, string, string][] = [
      [{ qa: 'x' }, 'email', 'Enter an e-mail address.'],
      [{ email: 'not-an-address', qa: 'x' }, 'email', 'The e-mail address is not valid.'],
      [{ email: 'a@b.org', qa: '   ' }, 'qa', 'Describe the question.'],
      [{ email: 'a@b.org', phone: '12345', qa: 'x' }, 'phone', 'Enter an 11-digit mobile number starting with 1.'],
      [{ email: 'a@b.org', qa: 'x', pictures: Array(7).fill(pic).join('#') }, 'pictures', 'At most 6 pictures can be sent.'],
      [{ email: 'a@b.org', qa: 'x', pictures: 'javascript:alert(1)' }, 'pictures', 'The pictures may only be the address of a picture uploaded here.'],
    ];
    for (const [body, field, msg] of cases) {
      const res = await submit(body, alice);
      expect([field, res.body.Code, res.body.Msg, (res.body.Data as { Field?: string } | null)?.Field]).toEqual([field, Code.Invalid, msg, field]);
    }
    expect((await submit({ qa: 'x' }, alice, 'zh')).body.Msg).toBe('请输入邮箱。');
    expect((await submit({ email: 'a@b.org', qa: '' }, alice, 'zh')).body.Msg).toBe('请输入问题描述。');
    // another organisation's picture, and one that does not exist
    const foreign = await submit({ email: 'a@b.org', qa: 'x', pictures: pic }, bob);
    expect(foreign.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'pictures[0]' } });
    const missing = await submit({ email: 'a@b.org', qa: 'x', pictures: `${pic}#${pic.replace(/[0-9a-f]{32}/, 'f'.repeat(32))}` }, alice);
    expect(missing.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'pictures[1]' } });
    expect((await submit({ email: 'a@b.org', qa: 'x' })).body.Code).toBe(Code.SessionExpired);
    expect((await stored()).length).toBe(before);
  });

  it('is listed by the operator command', async () => {
    if (dialect !== 'sqlite') return; // the CLI reads <WILDTRACK_DATA>/wildtrack.db: a copy of the test's database
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-feedback-'));
    await t.database.sqlite!.backup(path.join(dataDir, 'wildtrack.db'));
    const env: Record<string, string | undefined> = { ...process.env, WILDTRACK_DATA: dataDir };
    delete env.DATABASE_URL;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'list-feedback', '--json', '--limit', '1'], {
      env,
      cwd: path.resolve(import.meta.dirname, '../../..'),
    });
    const text = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'list-feedback'], { env, cwd: path.resolve(import.meta.dirname, '../../..') });
    expect(text.stdout).toContain('    The map is empty.\n    Why?\n    picture: /prod-api/files/uploads/');
    fs.rmSync(dataDir, { recursive: true, force: true });
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { qa: string; org: string; pictures: string[] });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ qa: 'No phone, no pictures', org: 'Crane Lab', pictures: [] });
  });
});
