/**
 * Chunking of texts of any size in bounded memory: the text is split into
 * sentences and chunks one window at a time (`WINDOW_CHARS` characters), so
 * the sentence splitter never holds more than one window's tokens, whatever
 * the length of the text or of its lines (a 50 MB file on one line took 3.4 GB
 * when it was parsed at once).
 *
 * A window's last chunk may end where the window cuts the text (inside a
 * sentence, even inside a word): it is dropped, and the next window starts
 * where that chunk started. The chunks before it end at sentence boundaries
 * the cut cannot move, and the next window's first chunk starts at a chunk
 * start of the packing, so the chunks (and their overlaps) are the ones one
 * pass over the whole text would give wherever sentence boundaries are local.
 *
 * @since 0.1.0
 * @internal
 */
import type { ChunkConfig, TextChunk } from "@kg/core/NlpService"

/** Characters split into sentences at once. */
export const WINDOW_CHARS = 64 * 1024

/**
 * The chunks of `text` (offsets into `text`), computed one window at a time
 * with `chunkText` (an `NlpService.chunkText`, or `chunkParsed`: what a chunk carries besides its offsets, such as
 * its tokens, is relative to the chunk and kept as is).
 */
export const chunkInWindows = <C extends TextChunk = TextChunk>(
  chunkText: (text: string, config?: ChunkConfig) => ReadonlyArray<C>,
  text: string,
  config: ChunkConfig,
  windowChars: number = WINDOW_CHARS
): ReadonlyArray<C> => {
  if (text.length <= windowChars) return chunkText(text, config)
  const out: Array<C> = []
  const push = (piece: C, offset: number) =>
    out.push({ ...piece, ordinal: out.length, start: piece.start + offset, end: piece.end + offset })
  let pos = 0
  while (pos < text.length) {
    let end = Math.min(text.length, pos + windowChars)
    // Never cut a surrogate pair in two.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--
    const pieces = chunkText(text.slice(pos, end), config)
    if (end === text.length) {
      for (const piece of pieces) push(piece, pos)
      break
    }
    if (pieces.length >= 2) {
      for (let i = 0; i < pieces.length - 1; i++) push(pieces[i]!, pos)
      pos += pieces[pieces.length - 1]!.start
    } else if (pieces.length === 1 && pieces[0]!.end > 0) {
      // One chunk fills the window (one token of a window's length): kept; the text goes on after it.
      push(pieces[0]!, pos)
      pos += pieces[0]!.end
    } else {
      pos = end
    }
  }
  return out
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff

/** Most characters of a document its paper record is built from (`Pipeline.MAX_RECORD_CHARS`). */
export const MAX_RECORD_CHARS = 500_000

/** The text a paper record is built from: the document's first {@link MAX_RECORD_CHARS} characters. */
export const recordText = (text: string): string => (text.length <= MAX_RECORD_CHARS ? text : text.slice(0, MAX_RECORD_CHARS))
