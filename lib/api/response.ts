// How an answer goes out: a JSON answer (`json`, `jsonText`), written as one chunk the API lane and
// Next pass on as it is, and the versions a conditional write's `If-Match` names (the other side of
// the ETags the answers carry). Used by the route handlers and lib/api, below the wrapper, which never
// calls back up.

/**
 * The versions the tags in `If-Match` (a context's `ifMatch`) name: what follows `prefix` (the start
 * of the resource's own tags, opening quote included) when `valid` accepts it; undefined when there
 * is no header or it is `*` (any version). Tags are compared strongly, so a weak tag (`W/"…"`) names
 * nothing; an empty or unparsable header names nothing either: a client that meant to send a tag but
 * sent garbage must not overwrite someone else's change. The participant's and the contract text's
 * PUT use it (lib/api/update-participant-answer.ts, lib/api/json/document.ts).
 */
export function ifMatchVersions(ifMatch: string | null, prefix: string, valid: RegExp): readonly string[] | undefined {
  if (ifMatch === null || ifMatch.trim() === "*") return undefined;
  const versions: string[] = [];
  for (const raw of ifMatch.split(",")) {
    const tag = raw.trim();
    if (!tag.startsWith(prefix) || !tag.endsWith('"')) continue;
    const version = tag.slice(prefix.length, -1);
    if (valid.test(version)) versions.push(version);
  }
  return versions;
}

/** A JSON answer (200 unless `init` says otherwise). */
export function json(body: unknown, init?: ResponseInit): Response {
  return jsonText(JSON.stringify(body), init);
}

/**
 * An answer whose JSON is already written, as text or as its UTF-8 bytes. The body goes to
 * `Response` as bytes: given a string (as `Response.json` does), undici first checks it character
 * by character for lone surrogates, which costs more than the encoding itself on a 100 KB list.
 */
export function jsonText(text: string | Buffer<ArrayBuffer>, init?: ResponseInit): Response {
  const body = bodyOf(typeof text === "string" ? Buffer.from(text, "utf8") : text);
  // Most answers set no header of their own: no Headers object to build and search first.
  if (init?.headers === undefined) return new Response(body, { ...init, headers: JSON_CONTENT_TYPE });
  // A plain record without a Content-Type (an ETag, say): one record, which Response reads once.
  const own = init.headers;
  if (!(own instanceof Headers) && !Array.isArray(own) && !Object.keys(own).some((name) => name.toLowerCase() === "content-type")) {
    return new Response(body, { ...init, headers: { ...JSON_CONTENT_TYPE, ...own } });
  }
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  return new Response(body, { ...init, headers });
}

const JSON_CONTENT_TYPE = { "Content-Type": "application/json" } as const;

/**
 * `Response` copies bytes it is given (undici takes a copy of a BufferSource body, then wraps it in
 * a byte stream of its own); a stream's chunks it passes on as they are. So an answer's bytes go in
 * a stream of one chunk (not a byte stream, which would take the buffer over): never copied on the
 * way out, and at every size cheaper than the copy (on Node 24, 2.3 against 5.3 µs for 2 KB, 4
 * against 44 µs for 100 KB: bench/results/history.md "A list's 110 KB copied once").
 * A small Buffer is a slice of Node's shared 8 KB pool, so whatever reads this stream must write
 * the chunk as it is (the lane's `res.end`, Next's `res.write`): never transfer it, or read its
 * `.buffer` whole.
 */
function bodyOf(bytes: Buffer<ArrayBuffer>): BodyInit {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
