/**
 * `@kg/cli`: the `kg` command as a library: the command tree (`Cli`) and the
 * layer wiring it uses (`Layers`), for programs that embed or extend it.
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"
export * as Layers from "./Layers.js"
