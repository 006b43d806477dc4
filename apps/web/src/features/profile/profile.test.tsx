import { Code } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession, readStoredUser, writeStoredUser } from '../../lib/session';
import { user } from '../../test/fixtures';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { FeedbackDialog } from './components/FeedbackDialog';
import { UserInfoDialog } from './components/UserInfoDialog';
import { pictureFault } from './components/pictures';

const URL_A = `/prod-api/files/uploads/3/${'a'.repeat(32)}.png`;
const THUMB = `/prod-api/files/uploads/3/${'b'.repeat(32)}.png`;

beforeEach(() => {
  signInForTest();
  writeStoredUser({ nickName: 'Ranger One', userName: 'ranger01', imgUrl: '', email: 'ranger@example.org', phone: '' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

const bodies = (server: ReturnType<typeof fakeServer>, path: string) => callsTo(server, path).map((init) => JSON.parse(init.body as string) as Record<string, unknown>);
const fileInput = () => document.querySelector<HTMLInputElement>('.ant-modal input[type=file]')!;
const choose = (...files: File[]) => fireEvent.change(fileInput(), { target: { files } });
const png = (name = 'me.png', size?: number) => {
  const f = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('pictureFault', () => {
  it('tells a wrong type from too large a picture (§5 Avatar)', () => {
    expect(pictureFault({ name: 'a.JPEG', size: 10 })).toBeNull();
    expect(pictureFault({ name: 'a.gif', size: 10 })).toBe('type');
    expect(pictureFault({ name: 'png', size: 10 })).toBe('type');
    expect(pictureFault({ name: 'a.png', size: 20 * 1024 * 1024 })).toBe('size');
    expect(pictureFault({ name: 'a.png', size: 20 * 1024 * 1024 - 1 })).toBeNull();
  });
});

describe('the user-info dialog', () => {
  function renderDialog(open: boolean, onClose = vi.fn()) {
    return render(
      <AppProviders>
        <UserInfoDialog open={open} onClose={onClose} />
      </AppProviders>,
    );
  }

  it('uploads the chosen avatar, saves the trimmed nickname with it, and keeps the answered thumbnail', async () => {
    const server = fakeServer({
      '/api/Image/Upload': () => envelope(Code.Success, '', { Url: URL_A }),
      '/api/User/ModifyInfo': (b) => envelope(Code.Success, '', user({ NickName: String(b.nickName).trim(), ImgUrl: THUMB })),
    });
    const onClose = vi.fn();
    renderDialog(true, onClose);
    const nick = screen.getByTestId('profile-nickname');
    expect((nick as HTMLInputElement).value).toBe('Ranger One');
    choose(png('gif.gif'));
    expect(await screen.findByText('Only jpg, jpeg or png images can be uploaded.')).toBeTruthy();
    choose(png('huge.png', 20 * 1024 * 1024));
    expect(await screen.findByText('The image must be under 20 MB.')).toBeTruthy();
    expect(callsTo(server, '/api/Image/Upload')).toHaveLength(0);
    choose(png());
    await waitFor(() => expect(screen.getByTestId('profile-avatar').querySelector('img')?.getAttribute('src')).toBe(URL_A));
    fireEvent.change(nick, { target: { value: '  东方白鹳东方白鹳东方白鹳东方白鹳  ' } });
    expect(screen.getByTestId('profile-nickname-shown').textContent).toBe('Shown as: 东方白鹳东方白鹳东方…') // width 22: ten characters counting 2 and the ellipsis;
    fireEvent.click(screen.getByTestId('profile-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies(server, '/api/User/ModifyInfo')).toEqual([{ nickName: '东方白鹳东方白鹳东方白鹳东方白鹳', image: URL_A }]);
    expect(readStoredUser()).toMatchObject({ nickName: '东方白鹳东方白鹳东方白鹳东方白鹳', imgUrl: THUMB });
  });

  it('refuses a blank nickname in the form, and Cancel resets it', async () => {
    const server = fakeServer({ '/api/Image/Upload': () => envelope(Code.Success, '', { Url: URL_A }) });
    const onClose = vi.fn();
    const view = renderDialog(true, onClose);
    fireEvent.change(screen.getByTestId('profile-nickname'), { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByText('Enter a nickname.')).toBeTruthy();
    choose(png());
    await waitFor(() => expect(screen.getByTestId('profile-avatar').querySelector('img')?.getAttribute('src')).toBe(URL_A));
    fireEvent.click(screen.getByTestId('profile-cancel'));
    expect(onClose).toHaveBeenCalled();
    expect(callsTo(server, '/api/User/ModifyInfo')).toHaveLength(0);
    view.rerender(
      <AppProviders>
        <UserInfoDialog open={false} onClose={onClose} />
      </AppProviders>,
    );
    view.rerender(
      <AppProviders>
        <UserInfoDialog open onClose={onClose} />
      </AppProviders>,
    );
    await waitFor(() => expect((screen.getByTestId('profile-nickname') as HTMLInputElement).value).toBe('Ranger One'));
    expect(screen.getByTestId('profile-avatar').querySelector('img')).toBeNull();
  });
});

describe('the feedback dialog', () => {
  it('checks the e-mail and question, sends only the photos the server took, joined by #', async () => {
    let uploads = 0;
    const server = fakeServer({
      '/api/Image/Upload': () => {
        uploads += 1;
        return uploads === 2 ? envelope(1001, 'Only jpg, jpeg or png images can be uploaded.') : envelope(Code.Success, '', { Url: `/prod-api/files/uploads/3/${String(uploads).repeat(32)}.jpg` });
      },
      '/api/Advice/Submit': () => envelope(Code.Success, '', null),
    });
    const onClose = vi.fn();
    render(
      <AppProviders>
        <FeedbackDialog open onClose={onClose} />
      </AppProviders>,
    );
    const email = screen.getByTestId('feedback-email');
    expect((email as HTMLInputElement).value).toBe('ranger@example.org');
    fireEvent.change(email, { target: { value: 'not-an-address' } });
    fireEvent.change(screen.getByTestId('feedback-phone'), { target: { value: '123' } });
    fireEvent.click(screen.getByTestId('feedback-send'));
    expect(await screen.findByText('The e-mail address is not valid.')).toBeTruthy();
    expect(await screen.findByText('Describe the question.')).toBeTruthy();
    expect(await screen.findByText('Enter an 11-digit mobile number starting with 1.')).toBeTruthy();
    expect(callsTo(server, '/api/Advice/Submit')).toHaveLength(0);

    fireEvent.change(email, { target: { value: 'ringer@example.org' } });
    fireEvent.change(screen.getByTestId('feedback-phone'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('feedback-qa'), { target: { value: 'The map is empty.' } });
    choose(png('a.png'));
    await waitFor(() => expect(uploads).toBe(1));
    choose(png('b.png'));
    await waitFor(() => expect(uploads).toBe(2));
    choose(png('c.png'));
    await waitFor(() => expect(document.querySelectorAll('.ant-upload-list-item-done')).toHaveLength(2));
    expect(document.querySelectorAll('.ant-upload-list-item-error')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('feedback-send'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies(server, '/api/Advice/Submit')).toEqual([
      { email: 'ringer@example.org', phone: '', qa: 'The map is empty.', pictures: `/prod-api/files/uploads/3/${'1'.repeat(32)}.jpg#/prod-api/files/uploads/3/${'3'.repeat(32)}.jpg` },
    ]);
  });
});
