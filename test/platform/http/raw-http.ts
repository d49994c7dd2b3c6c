import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A POST over a real socket as the simplest clients make it: the whole body first (`chunks` copies of
 * `chunk`, written with back-pressure and never held whole, with a Content-Length or chunked), then the
 * answer. Rejects when the connection fails before the body is written or before the answer is whole
 * (EPIPE, a reset): the answer to an oversized body must reach such a client too.
 */
export function rawPost(
  url: string,
  headers: Record<string, string>,
  body: { chunk: Buffer; chunks: number; chunked?: boolean },
): Promise<RawAnswer> {
  const { hostname, port, pathname } = new URL(url);
  const total = body.chunk.length * body.chunks;
  const head = [
    `POST ${pathname} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    body.chunked ? "transfer-encoding: chunked" : `content-length: ${total}`,
    "",
    "",
  ].join("\r\n");
  const framed = body.chunked
    ? Buffer.concat([Buffer.from(`${body.chunk.length.toString(16)}\r\n`), body.chunk, Buffer.from("\r\n")])
    : body.chunk;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on("data", (part: Buffer) => received.push(part));
    socket.on("error", reject);
    let written = 0;
    const pump = () => {
      while (written < body.chunks) {
        written++;
        if (!socket.write(framed)) {
          socket.once("drain", pump);
          return;
        }
      }
      if (body.chunked) socket.write("0\r\n\r\n");
      // the body is sent: now read the answer (whole once the server closes, or by its Content-Length)
      const settle = () => {
        const answer = parseAnswer(Buffer.concat(received));
        if (answer === undefined) return false;
        socket.destroy();
        resolve(answer);
        return true;
      };
      if (!settle()) {
        socket.on("data", settle);
        socket.on("end", () => settle() || reject(new Error("the connection closed before a whole answer")));
      }
    };
    socket.once("connect", () => {
      socket.write(head);
      pump();
    });
  });
}

/** the answer once its head and Content-Length body are all there */
function parseAnswer(bytes: Buffer): RawAnswer | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const length = Number(headers["content-length"] ?? Number.NaN);
  const rest = bytes.subarray(end + 4);
  if (!Number.isFinite(length) || rest.length < length) return undefined;
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: rest.subarray(0, length).toString("utf8"),
  };
}
