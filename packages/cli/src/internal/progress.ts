/**
 * Progress output for long runs: a redrawn bar on a TTY, plain lines
 * otherwise (so logs and CI output stay readable). Always on stderr, so
 * `--json` output on stdout stays clean.
 */
import * as Effect from "effect/Effect"

export interface Progress {
  readonly line: (text: string) => Effect.Effect<void>
  readonly bar: (label: string, done: number, total: number) => Effect.Effect<void>
  readonly clear: Effect.Effect<void>
}

export const make = (options: { readonly quiet: boolean }): Progress => {
  const stream = process.stderr
  const tty = stream.isTTY === true
  let barShown = false
  let lastPlain = 0
  const clearBar = () => {
    if (barShown) {
      stream.write("\r\x1b[2K")
      barShown = false
    }
  }
  return {
    line: (text) =>
      Effect.sync(() => {
        if (options.quiet) return
        clearBar()
        stream.write(text + "\n")
      }),
    bar: (label, done, total) =>
      Effect.sync(() => {
        if (options.quiet) return
        if (tty) {
          const width = 28
          const ratio = total > 0 ? Math.min(1, done / total) : 0
          const filled = Math.round(ratio * width)
          const columns = stream.columns ?? 100
          const text = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${label}`
          stream.write("\r\x1b[2K" + text.slice(0, Math.max(10, columns - 1)))
          barShown = true
        } else {
          // Plain mode: a line at each quarter of a long paper, nothing for short ones (the per-paper summary
          // line follows anyway).
          const quarter = total >= 40 ? Math.floor((done / total) * 4) : 0
          if (quarter > lastPlain && done < total) {
            lastPlain = quarter
            stream.write(`  ${label}: ${done}/${total} chunks\n`)
          }
          if (done >= total) lastPlain = 0
        }
      }),
    clear: Effect.sync(clearBar)
  }
}
