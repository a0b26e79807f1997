/**
 * The version printed by `kg --version`.
 *
 * @since 0.1.0
 */
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
/** @since 0.1.0 */
export const version: string = (require("../package.json") as { version: string }).version
