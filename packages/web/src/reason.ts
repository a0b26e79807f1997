/**
 * The status reason as the claim page shows it (pure: no DOM, so the unit tests read it).
 */

/**
 * The count behind a status as a badge says it, the words of `kg claims` and `kg claim`: "contested: 1 paper for,
 * 1 against", "preliminary: 0 papers for, 2 statements without evidence" (papers that only state the claim, a note or a
 * hypothesis: the status does not count them, and a badge saying "0 papers for" alone would hide them). The status
 * alone when the count is not known.
 */
export const statusCount = (status: string, support?: number, opposition?: number, stated?: number): string => {
  if (support === undefined) return status
  const parts = [`${support} paper${support === 1 ? "" : "s"} for`]
  if (opposition !== undefined && opposition > 0) parts.push(`${opposition} against`)
  if (stated !== undefined && stated > 0) parts.push(`${stated} statement${stated === 1 ? "" : "s"} without evidence`)
  return `${status}: ${parts.join(", ")}`
}

/**
 * A status reason without the count it opens with ("1 paper for, 1 against: contradicted ..."): the badge beside it
 * already says the count, statements without evidence included ({@link statusCount}).
 */
export const reasonAfterCount = (reason: string): string => {
  const rest = reason.replace(/^\d+ papers? for, \d+ against(?: \(\d+ statements? without evidence\))?: /, "")
  return rest === "" ? reason : rest.charAt(0).toUpperCase() + rest.slice(1)
}
