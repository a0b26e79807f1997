/**
 * Command-line flags of the scripts: `--name value`.
 */

/** The value after `--name` on the command line, or undefined when the flag is absent. */
export const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
