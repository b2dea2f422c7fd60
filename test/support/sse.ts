/**
 * A small server-sent events client for tests: reads a `text/event-stream` response through fetch, splits it into
 * frames as the SSE spec does (blank line ends a frame; `id:`, `event:`, `data:` fields; `:` lines are comments) and
 * lets a test wait for frames with a timeout.
 */

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  /** Comment lines (`: heartbeat`), without the colon and the space after it. */
  comments: string[];
}

export interface SseClient {
  response: Response;
  /** Every frame received so far, in order. */
  frames: SseFrame[];
  /** The `event: change` frames received so far. */
  changes(): SseFrame[];
  /** Resolves once `predicate` holds over the frames received; rejects after `timeoutMs`. */
  until(predicate: (frames: SseFrame[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  /** Disconnects (aborts the request). */
  close(): void;
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comments.push(line.slice(1).trimStart());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}

/** Opens `url` as an event stream. The response is returned whatever its status (a 400 has a JSON body). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const w of [...waiters]) w();
  };
  const ended = (async () => {
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        notify();
      }
    } catch {
      // Aborted by close(): the stream ends here.
    } finally {
      notify();
    }
  })();
  let done = false;
  void ended.then(() => {
    done = true;
    notify();
  });
  return {
    response,
    frames,
    changes: () => frames.filter((f) => f.event === 'change'),
    until(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(frames)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`stream ended first; frames: ${JSON.stringify(frames)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${timeoutMs} ms; frames: ${JSON.stringify(frames)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    ended,
    close: () => abort.abort(),
  };
}
