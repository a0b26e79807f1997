/**
 * Regular expressions built from text: a name, an abbreviation or a phrase read in a paper is matched as written,
 * so its characters that a pattern would read as syntax ("C++", "Res2Net (50)", "p<0.05") are escaped first.
 *
 * @since 0.1.0
 */

/**
 * `text` with every character a regular expression reads as syntax escaped, so that `new RegExp(escape(text))`
 * matches `text` itself.
 *
 * @since 0.1.0
 * @category text
 */
export const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
