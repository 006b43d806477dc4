/**
 * fetch() for an upload whose progress is shown: fetch can't report how much of a request body was sent
 * (streaming request bodies need HTTP/2), XMLHttpRequest can. Same arguments and answer as fetch for
 * what the API client uses: method, headers, a FormData body, the abort signal, the reply's status and text.
 */
export function fetchWithUploadProgress(onProgress: (sent: number, total: number) => void) {
  return (url: string, init: RequestInit): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'POST', url);
      xhr.withCredentials = init.credentials !== 'omit';
      for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded, e.total);
      };
      xhr.onload = () => resolve(new Response(xhr.responseText, { status: xhr.status === 0 ? 599 : xhr.status }));
      xhr.onerror = () => reject(new TypeError('Failed to fetch'));
      xhr.ontimeout = () => reject(new TypeError('Failed to fetch'));
      xhr.onabort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      const signal = init.signal;
      if (signal?.aborted) return reject(new DOMException('The operation was aborted.', 'AbortError'));
      signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(init.body as XMLHttpRequestBodyInit | null | undefined);
    });
}
