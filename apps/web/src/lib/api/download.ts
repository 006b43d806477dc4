import type { CallBody, CallDef } from '@wildtrack/contract';
import { callReply, type CallOptions } from './client';
import { ApiError } from './errors';

/**
 * Downloads (§7.1: posted, answered with the file), apart from the client so that the first load does not
 * carry them: the call is signed and its refusals handled as any call's; the file is saved by the browser.
 */

/** The file name of a Content-Disposition: the UTF-8 `filename*` when there is one, else `filename`. */
export function attachmentName(header: string | null): string {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '');
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // a broken encoding: the plain name below
    }
  }
  return /filename="([^"]*)"/i.exec(header ?? '')?.[1] ?? 'download';
}

/** Posts a download call and saves its file under the server's name; answers that name. */
export async function download<C extends CallDef>(def: C, body: CallBody<C>, opts: CallOptions = {}): Promise<string> {
  let saved = '';
  const onFile = (file: Blob, disposition: string | null): void => {
    saved = attachmentName(disposition);
    const url = URL.createObjectURL(file);
    const a = document.createElement('a');
    a.href = url;
    a.download = saved;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  const reply = await (callReply as (def: C, body: unknown, opts: CallOptions) => ReturnType<typeof callReply<C>>)(def, body, { ...opts, onFile });
  if (!reply.ok) throw new ApiError('silent', reply.msg, { code: reply.code, msg: reply.msg, data: reply.data, notified: false });
  return saved;
}
