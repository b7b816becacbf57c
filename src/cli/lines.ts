/**
 * Lines from a byte stream, each at most `maxBytes` long. Node's readline keeps a whole line in
 * memory before it can check its length (a 600 MB line ended in a RangeError); this reader keeps
 * at most `maxBytes` of a line, and reports a longer one by its size, skipping to the next line.
 * "\n" ends a line, a "\r" before it is dropped (as readline's crlfDelay does), and bytes are
 * decoded as UTF-8 (invalid sequences become U+FFFD, as readline does).
 */
export type InputLine = { readonly text: string } | { readonly tooLongBytes: number };

const decoder = new TextDecoder();

export async function* boundedLines(input: AsyncIterable<Buffer | string>, maxBytes: number): AsyncGenerator<InputLine> {
  let parts: Uint8Array[] = [];
  let size = 0;
  /** Bytes of the current line while it is over the limit (-1: it is not). */
  let skipped = -1;
  const finish = (): InputLine => {
    if (skipped >= 0) {
      const line = { tooLongBytes: skipped };
      skipped = -1;
      return line;
    }
    const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return { text: decoder.decode(bytes.subarray(0, end)) };
  };
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    // Bounded by the chunk: each round consumes up to and including one newline.
    while (start < buffer.length) {
      const newline = buffer.indexOf(0x0a, start);
      const end = newline < 0 ? buffer.length : newline;
      const piece = buffer.subarray(start, end);
      if (skipped >= 0) skipped += piece.length;
      else if (size + piece.length > maxBytes) {
        skipped = size + piece.length;
        parts = [];
        size = 0;
      } else if (piece.length > 0) {
        // Copied: the chunk itself is not kept alive by a line that goes on in later chunks.
        parts.push(newline < 0 ? Uint8Array.from(piece) : piece);
        size += piece.length;
      }
      if (newline < 0) break;
      yield finish();
      start = newline + 1;
    }
  }
  if (skipped >= 0 || size > 0) yield finish();
}
