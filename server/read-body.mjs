// Reading a request's whole body from the socket, bounded: the front door reads a chunked body
// this way (its size is known only once read), and the API lane a small declared one (a `Request`
// given the bytes costs far less to read in the handler than one streaming from the socket).

/** The whole body, null once it passes `max` bytes (reading stops there), undefined if aborted. */
export function readAtMost(req, max) {
  return new Promise((resolve) => {
    const chunks = [];
    let total = 0;
    let settled = false;
    const done = (value) => {
      if (settled) return;
      settled = true;
      req.removeListener("data", onData);
      resolve(value);
    };
    const onData = (chunk) => {
      total += chunk.length;
      if (total > max) {
        req.pause();
        done(null);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total)));
    req.once("error", () => done(undefined));
    req.once("aborted", () => done(undefined));
    // A connection closed before the end (after 'end', `close` finds it settled).
    req.once("close", () => done(undefined));
  });
}
