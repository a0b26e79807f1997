/**
 * Byte-level work of ingest: sniffing binary content, decoding text strictly
 * (UTF-8, or UTF-16 with a BOM), and normalising decoded text.
 *
 * Everything here is pure; failures are returned as plain `SkipInfo` data so
 * the public `Ingest` module can turn them into tagged errors with a path.
 *
 * @internal
 */

/**
 * Why a file was skipped. Shared by `IngestSkip`, `IngestError` and the
 * `Skipped` ingest event.
 *
 * @internal
 */
export type SkipKind =
  | "NotFound"
  | "Unsupported"
  | "NotRegularFile"
  | "Unreadable"
  | "TooLarge"
  | "Empty"
  | "Binary"
  | "Encoding"
  | "CorruptPdf"
  | "EncryptedPdf"
  | "NoText"
  | "Timeout"
  | "Failed"
  /** Not a problem: the caller already has this content (see `IngestOptions.isKnown`). */
  | "Known"

/** A skip without its path: what went wrong and what to do. @internal */
export interface SkipInfo {
  readonly kind: SkipKind
  readonly reason: string
}

/** Supported document formats. @internal */
export type DocumentFormat = "txt" | "md" | "pdf"

const EXTENSIONS: Readonly<Record<string, DocumentFormat>> = {
  ".txt": "txt",
  ".md": "md",
  ".markdown": "md",
  ".pdf": "pdf"
}

/** Format of a path by its extension (case-insensitive), or null. @internal */
export const formatOfPath = (path: string): DocumentFormat | null => {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"))
  const name = path.slice(slash + 1)
  const dot = name.lastIndexOf(".")
  if (dot <= 0) return null
  return EXTENSIONS[name.slice(dot).toLowerCase()] ?? null
}

/** The extensions ingest reads, for messages. @internal */
export const SUPPORTED_EXTENSIONS = Object.keys(EXTENSIONS).join(", ")

/** How many leading bytes are inspected to decide "binary". @internal */
export const SNIFF_BYTES = 8192

/** Share of control bytes in the sniffed prefix above which a file is binary. @internal */
export const CONTROL_SHARE_LIMIT = 0.05

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>): boolean =>
  bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b)

/**
 * True when a `%PDF-` header occurs in the first 1024 bytes (where PDF
 * readers look for it).
 *
 * @internal
 */
export const looksLikePdf = (bytes: Uint8Array): boolean => {
  const limit = Math.min(bytes.length, 1024) - 5
  for (let i = 0; i <= limit; i++) {
    if (
      bytes[i] === 0x25 && bytes[i + 1] === 0x50 && bytes[i + 2] === 0x44 && bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    ) return true
  }
  return false
}

const MAGIC: ReadonlyArray<readonly [ReadonlyArray<number>, string]> = [
  [[0x50, 0x4b, 0x03, 0x04], "a ZIP archive (e.g. .docx, .epub or .zip)"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x7f, 0x45, 0x4c, 0x46], "an executable (ELF)"],
  [[0xd0, 0xcf, 0x11, 0xe0], "a legacy Microsoft Office document (.doc)"]
]

const CONVERT = "convert it to .txt, .md or .pdf, or remove it from the input"

/**
 * Detect binary content from the first `SNIFF_BYTES` bytes: a known binary
 * signature, any NUL byte, or a high share of control bytes. Returns the skip
 * or null when the bytes look like text. Callers handle UTF-16 BOMs first.
 *
 * @internal
 */
export const sniffBinary = (bytes: Uint8Array): SkipInfo | null => {
  for (const [magic, what] of MAGIC) {
    if (startsWith(bytes, magic)) return { kind: "Binary", reason: `is ${what}, not text; ${CONVERT}` }
  }
  const n = Math.min(bytes.length, SNIFF_BYTES)
  let control = 0
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!
    if (b === 0) {
      return {
        kind: "Binary",
        reason: `contains NUL bytes in its first ${SNIFF_BYTES / 1024} KB, so it is binary data (or UTF-16 text without a BOM), not UTF-8 text; ${CONVERT}`
      }
    }
    // C0 controls except \t \n \v \f \r and ESC, plus DEL.
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f) {
      control++
    }
  }
  if (n > 0 && control / n > CONTROL_SHARE_LIMIT) {
    return {
      kind: "Binary",
      reason: `is ${Math.round((100 * control) / n)}% control bytes in its first ${SNIFF_BYTES / 1024} KB, so it is binary data, not text; ${CONVERT}`
    }
  }
  return null
}

/**
 * Offset of the first byte that makes `bytes` invalid UTF-8 (per the WHATWG
 * decoder: no overlongs, no surrogates, nothing above U+10FFFF), or -1.
 *
 * @internal
 */
export const firstInvalidUtf8 = (bytes: Uint8Array): number => {
  const n = bytes.length
  let i = 0
  while (i < n) {
    const c = bytes[i]!
    if (c < 0x80) {
      i++
      continue
    }
    let need: number
    let lo = 0x80
    let hi = 0xbf
    if (c >= 0xc2 && c <= 0xdf) need = 1
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2
      if (c === 0xe0) lo = 0xa0
      if (c === 0xed) hi = 0x9f
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3
      if (c === 0xf0) lo = 0x90
      if (c === 0xf4) hi = 0x8f
    } else return i
    for (let k = 1; k <= need; k++) {
      const b = bytes[i + k]
      if (b === undefined) return i
      const min = k === 1 ? lo : 0x80
      const max = k === 1 ? hi : 0xbf
      if (b < min || b > max) return i
    }
    i += need + 1
  }
  return -1
}

const hex = (b: number | undefined): string => b === undefined ? "end of file" : `0x${b.toString(16).toUpperCase().padStart(2, "0")}`

/**
 * Decode file bytes to a string: UTF-16 when the file starts with a UTF-16
 * BOM, otherwise strict UTF-8 (a UTF-8 BOM is dropped). Binary content and
 * invalid encodings are returned as skips.
 *
 * @internal
 */
export const decodeText = (bytes: Uint8Array): { readonly text: string } | { readonly skip: SkipInfo } => {
  const utf16 = startsWith(bytes, [0xff, 0xfe]) ? "utf-16le" : startsWith(bytes, [0xfe, 0xff]) ? "utf-16be" : null
  if (utf16 !== null) {
    try {
      return { text: new TextDecoder(utf16, { fatal: true }).decode(bytes) }
    } catch {
      return {
        skip: {
          kind: "Encoding",
          reason: `starts with a ${utf16.toUpperCase()} byte-order mark but is not valid ${utf16.toUpperCase()}; re-save it as UTF-8`
        }
      }
    }
  }
  const binary = sniffBinary(bytes)
  if (binary !== null) return { skip: binary }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) }
  } catch {
    const at = firstInvalidUtf8(bytes)
    const where = at >= 0 ? ` (byte ${hex(bytes[at])} at offset ${at})` : ""
    return {
      skip: {
        kind: "Encoding",
        reason: `is not valid UTF-8${where}; it may be Latin-1/Windows-1252: re-save it as UTF-8 (e.g. \`iconv -f WINDOWS-1252 -t UTF-8 in.txt > out.txt\`)`
      }
    }
  }
}

// Control characters removed from text: C0 except \t and \n (\r, \v, \f and
// the Unicode line/paragraph separators are turned into \n first), DEL and C1.
const CONTROL_CHARS = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g

/**
 * Normalise decoded text: `\r\n` and lone `\r` (and `\v`, `\f`, U+2028,
 * U+2029) become `\n`, other control characters except `\t` are removed, and
 * the result is in Unicode NFC.
 *
 * @internal
 */
export const normalizeText = (text: string): string =>
  text
    .replace(/\r\n?|[\v\f\u2028\u2029]/g, "\n")
    .replace(CONTROL_CHARS, "")
    .normalize("NFC")

/** True when the text has no non-whitespace character. @internal */
export const isBlank = (text: string): boolean => !/\S/u.test(text)

/** First non-blank line, trimmed, with whitespace collapsed and capped in length. @internal */
export const firstLine = (text: string, maxLength = 300): string | null => {
  for (const line of text.split("\n", 200)) {
    const clean = line.replace(/\s+/gu, " ").trim()
    if (clean.length > 0) return clean.length > maxLength ? `${clean.slice(0, maxLength - 1)}…` : clean
  }
  return null
}

/** Human-readable byte size. @internal */
export const formatBytes = (n: number): string =>
  n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} bytes`
