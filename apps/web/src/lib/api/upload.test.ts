import { Code, Header, signingKey, signRequest } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelope, fakeServer } from '../../test/server';
import { clearSession, setToken } from '../session';
import { resetClientForTests } from './client';
import { uploadImage } from './upload';

beforeEach(() => {
  resetClientForTests();
  setToken('session-1.token-abc');
});
afterEach(() => clearSession());

describe('image upload', () => {
  it('posts multipart file and description, signed over an empty body, and answers the URL', async () => {
    const server = fakeServer({ '/api/Image/Upload': () => envelope(Code.Success, 'ok', { Url: '/files/images/a.jpg' }) });
    const url = await uploadImage(new File([new Uint8Array([1, 2, 3])], 'stork.jpg', { type: 'image/jpeg' }), 'Animal photo');
    expect(url).toBe('/files/images/a.jpg');
    const [path, init] = server.mock.calls[0]!;
    expect(path).toBe('/prod-api/api/Image/Upload');
    expect(init.method).toBe('POST');
    const form = init.body as FormData;
    expect((form.get('file') as File).name).toBe('stork.jpg');
    expect(form.get('description')).toBe('Animal photo');
    const headers = init.headers as Record<string, string>;
    expect(headers['content-type']).toBeUndefined(); // the browser sets the multipart boundary
    expect(headers[Header.session]).toBe('session-1');
    expect(headers[Header.token]).toBeUndefined();
    expect(headers[Header.signature]).toBe(
      signRequest(signingKey('token-abc'), { method: 'POST', path: '/api/Image/Upload', timestamp: headers[Header.timestamp]!, requestCode: headers[Header.requestCode]!, body: '' }),
    );
  });

  it('fails (and the upload leaves the list) when the reply is not Code 1000', async () => {
    fakeServer({ '/api/Image/Upload': () => envelope(1001, 'Only jpg, jpeg or png pictures') });
    await expect(uploadImage(new File(['x'], 'a.gif'), '')).rejects.toMatchObject({ kind: 'code', code: 1001 });
  });
});
