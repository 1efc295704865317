// A merchant's Node client as its own process: `fetch` (undici) POSTs each job's body and reads the answer.
// In its own process it writes while the gateway answers, as a real client does; inside the test's process the
// event loop is shared, and a server that answers and closes mid-body goes unnoticed.
//
// node test/support/fetch-client.js < jobs.json prints one outcome per job, as JSON, in order:
// jobs [{url, size, authorization?, chunked?}]; outcome {status, code, requestIdMatches} or {error}.
const { ReadableStream } = require('node:stream/web');

const SOCKETS = 4;
const CHUNK = 64 * 1024;

/** The body: one buffer (Content-Length), or a stream of 64 KiB chunks (chunked transfer encoding). */
function bodyOf(size, chunked) {
  if (!chunked) return Buffer.alloc(size, 'x');
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(CHUNK, size - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(120));
    },
  });
}

async function post(job) {
  const headers = { 'content-type': 'application/json' };
  if (job.authorization) headers.authorization = job.authorization;
  try {
    const res = await fetch(job.url, {
      method: 'POST',
      headers,
      body: bodyOf(job.size, job.chunked),
      ...(job.chunked ? { duplex: 'half' } : {}),
    });
    const text = await res.text();
    try {
      const error = JSON.parse(text).error;
      return {
        status: res.status,
        code: error?.code,
        requestIdMatches: error?.requestId === res.headers.get('x-request-id'),
      };
    } catch {
      return { status: res.status, error: `not JSON: ${text.slice(0, 100)}` };
    }
  } catch (e) {
    return { error: e.cause?.code ?? e.message };
  }
}

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const jobs = JSON.parse(input);
  const out = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: SOCKETS }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await post(jobs[i]);
      }
    }),
  );
  process.stdout.write(JSON.stringify(out));
}

void main();
